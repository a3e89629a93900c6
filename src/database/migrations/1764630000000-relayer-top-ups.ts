import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Treasury top-ups of relayer keys. The partial unique index allows one open top-up per
 * (chain, key), so any number of workers noticing the same low key send it once.
 */
export class RelayerTopUps1764630000000 implements MigrationInterface {
  name = 'RelayerTopUps1764630000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE relayer_top_ups (
        id bigserial PRIMARY KEY,
        chain_id integer NOT NULL,
        address varchar(42) NOT NULL,
        treasury varchar(42) NOT NULL,
        amount_wei numeric(78, 0) NOT NULL CHECK (amount_wei > 0),
        status varchar(16) NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'mined', 'failed')),
        nonce bigint,
        hash varchar(66),
        raw text,
        error text,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE UNIQUE INDEX relayer_top_ups_one_open ON relayer_top_ups (chain_id, address) WHERE status = 'open'`);
    await q.query(`CREATE INDEX relayer_top_ups_chain_created_idx ON relayer_top_ups (chain_id, created_at DESC)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE relayer_top_ups`);
  }
}
