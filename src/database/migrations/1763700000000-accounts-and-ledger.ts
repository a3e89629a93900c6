import { MigrationInterface, QueryRunner } from 'typeorm';

export class AccountsAndLedger1763700000000 implements MigrationInterface {
  name = 'AccountsAndLedger1763700000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE accounts (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        address varchar(42) NOT NULL UNIQUE CHECK (address = lower(address) AND address ~ '^0x[0-9a-f]{40}$'),
        disabled boolean NOT NULL DEFAULT false,
        available_micro bigint NOT NULL DEFAULT 0 CHECK (available_micro >= 0),
        pending_micro bigint NOT NULL DEFAULT 0 CHECK (pending_micro >= 0),
        per_tx_limit_micro bigint NOT NULL DEFAULT 50000000 CHECK (per_tx_limit_micro >= 0),
        daily_limit_micro bigint NOT NULL DEFAULT 500000000 CHECK (daily_limit_micro >= 0),
        daily_consumed_micro bigint NOT NULL DEFAULT 0,
        daily_updated_at timestamptz NOT NULL DEFAULT now(),
        disabled_chain_ids integer[] NOT NULL DEFAULT '{}',
        max_retries integer NOT NULL DEFAULT 3 CHECK (max_retries >= 0),
        circuit_breaker_enabled boolean NOT NULL DEFAULT true,
        failure_streak_limit integer NOT NULL DEFAULT 10 CHECK (failure_streak_limit >= 1),
        failure_streak integer NOT NULL DEFAULT 0,
        ip_whitelist text[] NOT NULL DEFAULT '{}',
        domain_whitelist text[] NOT NULL DEFAULT '{}',
        default_relay_account jsonb,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`
      CREATE TABLE api_keys (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        user_id uuid NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
        key_hash char(64) NOT NULL UNIQUE,
        key_prefix varchar(16) NOT NULL,
        rate_limit_per_minute integer CHECK (rate_limit_per_minute > 0),
        created_at timestamptz NOT NULL DEFAULT now(),
        revoked_at timestamptz
      )`);
    await q.query(`CREATE INDEX api_keys_user_id_idx ON api_keys (user_id)`);
    await q.query(`
      CREATE TABLE ledger_entries (
        id bigserial PRIMARY KEY,
        user_id uuid NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
        kind varchar(16) NOT NULL CHECK (kind IN ('credit', 'reserve', 'settle', 'release', 'debit')),
        available_delta bigint NOT NULL,
        pending_delta bigint NOT NULL,
        reference varchar(120),
        memo text,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX ledger_entries_user_id_idx ON ledger_entries (user_id, id)`);
    await q.query(`CREATE UNIQUE INDEX ledger_entries_kind_reference_uq ON ledger_entries (kind, reference) WHERE reference IS NOT NULL`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE ledger_entries`);
    await q.query(`DROP TABLE api_keys`);
    await q.query(`DROP TABLE accounts`);
  }
}
