import { MigrationInterface, QueryRunner } from 'typeorm';

/** Gasless swaps (GET /gasless/quote → POST /gasless/submit-swap → GET /gasless/status). */
export class GaslessSwaps1764300000000 implements MigrationInterface {
  name = 'GaslessSwaps1764300000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE gasless_swaps (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        user_id uuid NOT NULL REFERENCES accounts(id),
        quote_id varchar(64) NOT NULL,
        relay_tx_id uuid REFERENCES relay_transactions(id),
        status varchar(16) NOT NULL CHECK (status IN ('pending', 'submitted', 'executed', 'failed')),
        acquisition_mode smallint NOT NULL CHECK (acquisition_mode IN (2, 3)),
        chain_id int NOT NULL,
        sender varchar(42) NOT NULL,
        receiver varchar(42) NOT NULL,
        from_token varchar(42) NOT NULL,
        to_token varchar(42) NOT NULL,
        amount_in numeric(78,0) NOT NULL CHECK (amount_in > 0),
        amount_out numeric(78,0) NOT NULL,
        min_amount_out numeric(78,0) NOT NULL,
        fee_amount numeric(78,0) NOT NULL CHECK (fee_amount >= 0),
        permit_nonce numeric(78,0) NOT NULL,
        route_kind varchar(32) NOT NULL,
        execution_tx_hash varchar(66),
        failure_reason text,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE UNIQUE INDEX gasless_swaps_quote_id ON gasless_swaps (quote_id)`);
    await q.query(`CREATE INDEX gasless_swaps_user_id ON gasless_swaps (user_id)`);
    await q.query(`CREATE INDEX gasless_swaps_relay_tx_id ON gasless_swaps (relay_tx_id)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE gasless_swaps`);
  }
}
