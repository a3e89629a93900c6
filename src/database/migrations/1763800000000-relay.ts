import { MigrationInterface, QueryRunner } from 'typeorm';

export class Relay1763800000000 implements MigrationInterface {
  name = 'Relay1763800000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE relay_transactions (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        user_id uuid NOT NULL REFERENCES accounts(id),
        chain_id integer NOT NULL,
        to_address varchar(42),
        call_data text NOT NULL,
        value numeric(78,0) NOT NULL DEFAULT 0 CHECK (value >= 0),
        gas_limit numeric(78,0),
        gas_price numeric(78,0),
        max_fee_per_gas numeric(78,0),
        max_priority_fee_per_gas numeric(78,0),
        label text NOT NULL DEFAULT '',
        status varchar(16) NOT NULL CHECK (status IN ('PENDING', 'EXECUTED', 'FAILED')),
        transaction_type varchar(16) NOT NULL CHECK (transaction_type IN ('flash', 'flash-blocks', 'authenticated', 'funding-signed')),
        submit_region varchar(32) NOT NULL,
        derivation_path varchar(128),
        authorization_list jsonb,
        sender varchar(42),
        nonce bigint,
        execution_tx_hash varchar(66),
        estimated_cost_micro bigint NOT NULL CHECK (estimated_cost_micro >= 0),
        cost_micro bigint CHECK (cost_micro >= 0),
        is_account_charged boolean NOT NULL DEFAULT false,
        retries integer NOT NULL DEFAULT 0,
        latency_ms integer,
        error text,
        revert_reason text,
        receipt jsonb,
        funding_cost_wei numeric(78,0) NOT NULL DEFAULT 0,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX relay_transactions_user_id_idx ON relay_transactions (user_id)`);
    await q.query(`CREATE INDEX relay_transactions_pending_idx ON relay_transactions (created_at) WHERE status = 'PENDING'`);
    await q.query(`
      CREATE TABLE relay_broadcasts (
        id bigserial PRIMARY KEY,
        tx_id uuid NOT NULL REFERENCES relay_transactions(id) ON DELETE CASCADE,
        hash varchar(66) NOT NULL UNIQUE,
        chain_id integer NOT NULL,
        sender varchar(42) NOT NULL,
        nonce bigint NOT NULL,
        raw text NOT NULL,
        max_fee_per_gas numeric(78,0) NOT NULL,
        max_priority_fee_per_gas numeric(78,0),
        broadcast_at timestamptz,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX relay_broadcasts_tx_id_idx ON relay_broadcasts (tx_id)`);
    await q.query(`
      CREATE TABLE signer_nonces (
        chain_id integer NOT NULL,
        address varchar(42) NOT NULL,
        next_nonce bigint NOT NULL CHECK (next_nonce >= 0),
        updated_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (chain_id, address)
      )`);
    await q.query(`
      CREATE TABLE tx_status_events (
        id bigserial PRIMARY KEY,
        tx_id uuid NOT NULL REFERENCES relay_transactions(id) ON DELETE CASCADE,
        user_id uuid NOT NULL,
        status varchar(16) NOT NULL,
        previous_status varchar(16),
        payload jsonb NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX tx_status_events_tx_idx ON tx_status_events (tx_id, id)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE tx_status_events`);
    await q.query(`DROP TABLE signer_nonces`);
    await q.query(`DROP TABLE relay_broadcasts`);
    await q.query(`DROP TABLE relay_transactions`);
  }
}
