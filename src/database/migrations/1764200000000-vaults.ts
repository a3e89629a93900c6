import { MigrationInterface, QueryRunner } from 'typeorm';

/** Vault deposits and withdrawals: share-price samples, quotes with their auction bids, orders, positions. */
export class Vaults1764200000000 implements MigrationInterface {
  name = 'Vaults1764200000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE vault_share_samples (
        id bigserial PRIMARY KEY,
        chain_id integer NOT NULL,
        vault varchar(42) NOT NULL,
        block_number bigint NOT NULL,
        block_time timestamptz NOT NULL,
        assets_per_share numeric(78,0) NOT NULL,
        total_assets numeric(78,0) NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        UNIQUE (chain_id, vault, block_number)
      )`);
    await q.query(`CREATE INDEX vault_share_samples_time_idx ON vault_share_samples (chain_id, vault, block_time)`);
    await q.query(`
      CREATE TABLE vault_quotes (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        account_id uuid NOT NULL REFERENCES accounts(id),
        kind varchar(16) NOT NULL CHECK (kind IN ('deposit', 'withdraw')),
        user_address varchar(42) NOT NULL,
        chain_id integer NOT NULL,
        asset varchar(42) NOT NULL,
        amount numeric(78,0) NOT NULL CHECK (amount >= 0),
        shares numeric(78,0),
        risk_tier varchar(16),
        min_apy_bps integer,
        solver_id varchar(32),
        allocation jsonb NOT NULL,
        gross_apy numeric(24,12),
        net_apy numeric(24,12),
        fee_bps integer,
        risk_score numeric(8,6),
        delegate varchar(42) NOT NULL,
        calls jsonb NOT NULL,
        execute_nonce numeric(78,0) NOT NULL,
        deadline bigint NOT NULL,
        execute_digest varchar(66) NOT NULL,
        expires_at timestamptz NOT NULL,
        consumed_at timestamptz,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`
      CREATE TABLE vault_bids (
        id bigserial PRIMARY KEY,
        quote_id uuid NOT NULL REFERENCES vault_quotes(id) ON DELETE CASCADE,
        solver_id varchar(32) NOT NULL,
        allocation jsonb NOT NULL,
        gross_apy numeric(24,12) NOT NULL,
        net_apy numeric(24,12) NOT NULL,
        fee_bps integer NOT NULL,
        risk_score numeric(8,6) NOT NULL,
        rejected_reason text,
        won boolean NOT NULL DEFAULT false,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX vault_bids_quote_idx ON vault_bids (quote_id)`);
    await q.query(`
      CREATE TABLE vault_orders (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        account_id uuid NOT NULL REFERENCES accounts(id),
        quote_id uuid NOT NULL UNIQUE REFERENCES vault_quotes(id),
        kind varchar(16) NOT NULL CHECK (kind IN ('deposit', 'withdraw')),
        user_address varchar(42) NOT NULL,
        chain_id integer NOT NULL,
        asset varchar(42) NOT NULL,
        amount numeric(78,0) NOT NULL,
        venue_id varchar(64) NOT NULL,
        allocation jsonb NOT NULL,
        relay_tx_id uuid NOT NULL UNIQUE REFERENCES relay_transactions(id),
        status varchar(16) NOT NULL CHECK (status IN ('relaying', 'confirmed', 'failed')),
        execution_tx_hash varchar(66),
        failure_reason text,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX vault_orders_relaying_idx ON vault_orders (status) WHERE status = 'relaying'`);
    await q.query(`
      CREATE TABLE vault_positions (
        user_address varchar(42) NOT NULL,
        chain_id integer NOT NULL,
        vault varchar(42) NOT NULL,
        venue_id varchar(64) NOT NULL,
        asset varchar(42) NOT NULL,
        shares numeric(78,0) NOT NULL CHECK (shares >= 0),
        cost_basis numeric(78,0) NOT NULL CHECK (cost_basis >= 0),
        updated_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (user_address, chain_id, vault)
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE vault_positions`);
    await q.query(`DROP TABLE vault_orders`);
    await q.query(`DROP TABLE vault_bids`);
    await q.query(`DROP TABLE vault_quotes`);
    await q.query(`DROP TABLE vault_share_samples`);
  }
}
