import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The bridge of the cross-chain swaps (extensions.md, "Cross-chain swaps").
 *
 * - `bridge_cursors`: per source chain, the last block whose spoke deposits the filler holds as
 *   final (at the chain's `confirmations` depth); the scan resumes after it.
 * - `bridge_deposits`: every `Deposited` of a spoke, keyed by (source chain, deposit id), followed
 *   seen → confirmed (final on the source chain) → filling (the fill relayed; the move and the
 *   relay row are one database transaction, so one worker fills) → filled (the spoke's `Filled`
 *   read on the destination) → repaying → repaid; an unfilled one past its fill deadline
 *   refunding → refunded; one whose block left the chain before its depth `orphaned`.
 *   Amounts are token units (NUMERIC(78,0)).
 */
export class Bridge1795761000000 implements MigrationInterface {
  name = 'Bridge1795761000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE bridge_cursors (
      chain_id integer PRIMARY KEY,
      final_block bigint NOT NULL CHECK (final_block >= -1),
      updated_at timestamptz NOT NULL DEFAULT now()
    )`);
    await q.query(`CREATE TABLE bridge_deposits (
      id bigserial PRIMARY KEY,
      src_chain_id integer NOT NULL,
      deposit_id varchar(66) NOT NULL CHECK (deposit_id ~ '^0x[0-9a-f]{64}$'),
      src_tx_hash varchar(66) NOT NULL CHECK (src_tx_hash ~ '^0x[0-9a-f]{64}$'),
      src_block_number bigint NOT NULL,
      src_block_hash varchar(66) NOT NULL,
      depositor varchar(42) NOT NULL,
      input_token varchar(42) NOT NULL,
      input_amount numeric(78, 0) NOT NULL CHECK (input_amount > 0),
      dest_chain_id integer NOT NULL,
      output_token varchar(42) NOT NULL,
      output_amount numeric(78, 0) NOT NULL CHECK (output_amount >= 0),
      recipient varchar(42) NOT NULL,
      fill_deadline bigint NOT NULL,
      ref varchar(66) NOT NULL,
      state varchar(16) NOT NULL DEFAULT 'seen'
        CHECK (state IN ('seen', 'orphaned', 'confirmed', 'filling', 'filled', 'repaying', 'repaid', 'refunding', 'refunded')),
      fill_amount numeric(78, 0) CHECK (fill_amount >= 0),
      fill_relay_tx_id uuid,
      fill_tx_hash varchar(66),
      fill_block_number bigint,
      repay_relay_tx_id uuid,
      repay_tx_hash varchar(66),
      refund_relay_tx_id uuid,
      refund_tx_hash varchar(66),
      confirmed_at timestamptz,
      filled_at timestamptz,
      closed_at timestamptz,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now(),
      UNIQUE (src_chain_id, deposit_id)
    )`);
    await q.query(`CREATE INDEX bridge_deposits_src_tx_idx ON bridge_deposits (src_chain_id, src_tx_hash)`);
    await q.query(`CREATE INDEX bridge_deposits_open_idx ON bridge_deposits (src_chain_id, state) WHERE state NOT IN ('orphaned', 'repaid', 'refunded')`);
    await q.query(`CREATE INDEX bridge_deposits_recent_idx ON bridge_deposits (id DESC)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE bridge_deposits`);
    await q.query(`DROP TABLE bridge_cursors`);
  }
}
