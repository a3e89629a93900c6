import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Self-serve funding by on-chain deposit (extensions.md, "Self-serve funding and proof of charge").
 *
 * - `deposit_addresses`: one deposit address per account, the same on every chain, recorded when
 *   it is first handed out (the watcher looks for transfers to the recorded addresses only).
 * - `deposit_cursors`: per chain, the last block whose transfers are final for the watcher (at
 *   the chain's `confirmations` depth): the scan resumes after it, so a restart loses nothing.
 * - `deposits`: every transfer seen to a deposit address, keyed by (chain, tx hash, log index;
 *   native -1) and followed `seen` → `credited` (or `orphaned` when a reorg removed its block
 *   before its depth). Sweep columns say when its funds reached the treasury.
 * - Ledger kind `deposit`, whose reference `dep:<chainId>:<txHash>:<logIndex>` must be present
 *   and unique: the existing (kind, reference) unique index covers it, and the CHECK keeps a
 *   deposit from escaping it with a NULL reference. The database, not only the code, makes a
 *   deposit credited at most once.
 */
export class Deposits1795750000000 implements MigrationInterface {
  name = 'Deposits1795750000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE ledger_entries DROP CONSTRAINT ledger_entries_kind_check`);
    await q.query(`ALTER TABLE ledger_entries ADD CONSTRAINT ledger_entries_kind_check CHECK (kind IN ('credit', 'reserve', 'raise', 'settle', 'release', 'debit', 'adjust', 'deposit'))`);
    await q.query(`ALTER TABLE ledger_entries ADD CONSTRAINT ledger_entries_deposit_reference_check
                     CHECK (kind <> 'deposit' OR (reference IS NOT NULL AND reference ~ '^dep:[0-9]+:0x[0-9a-f]{64}:-?[0-9]+$' AND available_delta > 0 AND pending_delta = 0))`);
    await q.query(`CREATE TABLE deposit_addresses (
      user_id uuid PRIMARY KEY REFERENCES accounts(id) ON DELETE CASCADE,
      address varchar(42) NOT NULL UNIQUE CHECK (address = lower(address) AND address ~ '^0x[0-9a-f]{40}$'),
      created_at timestamptz NOT NULL DEFAULT now()
    )`);
    await q.query(`CREATE TABLE deposit_cursors (
      chain_id integer PRIMARY KEY,
      final_block bigint NOT NULL CHECK (final_block >= -1),
      updated_at timestamptz NOT NULL DEFAULT now()
    )`);
    await q.query(`CREATE TABLE deposits (
      id bigserial PRIMARY KEY,
      chain_id integer NOT NULL,
      tx_hash varchar(66) NOT NULL CHECK (tx_hash ~ '^0x[0-9a-f]{64}$'),
      log_index integer NOT NULL CHECK (log_index >= -1),
      user_id uuid NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
      address varchar(42) NOT NULL,
      token varchar(42) NOT NULL,
      amount numeric(78, 0) NOT NULL CHECK (amount > 0),
      block_number bigint NOT NULL,
      block_hash varchar(66) NOT NULL,
      status varchar(16) NOT NULL DEFAULT 'seen' CHECK (status IN ('seen', 'credited', 'orphaned')),
      credited_micro bigint CHECK (credited_micro >= 0),
      native_price_usd numeric(30, 6),
      credit_block bigint,
      credited_at timestamptz,
      swept_tx_hash varchar(66),
      swept_at timestamptz,
      sweep_lease_until timestamptz,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now(),
      UNIQUE (chain_id, tx_hash, log_index),
      CHECK ((status = 'credited') = (credited_micro IS NOT NULL AND credited_at IS NOT NULL))
    )`);
    await q.query(`CREATE INDEX deposits_user_idx ON deposits (user_id, id DESC) WHERE status <> 'orphaned'`);
    await q.query(`CREATE INDEX deposits_open_idx ON deposits (chain_id, block_number) WHERE status = 'seen'`);
    await q.query(`CREATE INDEX deposits_unswept_idx ON deposits (chain_id, address) WHERE status = 'credited' AND swept_at IS NULL`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE deposits`);
    await q.query(`DROP TABLE deposit_cursors`);
    await q.query(`DROP TABLE deposit_addresses`);
    // Credited deposits are money the accounts hold: they stay as credits under their reference.
    await q.query(`UPDATE ledger_entries SET kind = 'credit', memo = COALESCE(memo, 'deposit') WHERE kind = 'deposit'`);
    await q.query(`ALTER TABLE ledger_entries DROP CONSTRAINT ledger_entries_deposit_reference_check`);
    await q.query(`ALTER TABLE ledger_entries DROP CONSTRAINT ledger_entries_kind_check`);
    await q.query(`ALTER TABLE ledger_entries ADD CONSTRAINT ledger_entries_kind_check CHECK (kind IN ('credit', 'reserve', 'raise', 'settle', 'release', 'debit', 'adjust'))`);
  }
}
