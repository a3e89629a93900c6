import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Pools discovered from DEX factories' creation events (chains file `dexes[i].fromBlock`), the
 * tokens they hold, and per DEX the last block whose creation events are indexed, so a restart
 * resumes there instead of reading the chain's history again. A V3 pool keeps the tick bitmap
 * words its Mint events touched (`tick_words`): its ticks are read through TickLens for those
 * words only, never by scanning the whole bitmap.
 */
export class SwapDiscovery1795744363415 implements MigrationInterface {
  name = 'SwapDiscovery1795744363415';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE swap_dex_cursors (
      chain_id integer NOT NULL,
      dex_key varchar(64) NOT NULL,
      factory varchar(42) NOT NULL,
      last_block bigint NOT NULL,
      updated_at timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (chain_id, dex_key)
    )`);
    await q.query(`CREATE TABLE swap_pools (
      chain_id integer NOT NULL,
      address varchar(42) NOT NULL,
      dex_key varchar(64) NOT NULL,
      token0 varchar(42) NOT NULL,
      token1 varchar(42) NOT NULL,
      fee integer,
      tick_spacing integer,
      tick_words integer[] NOT NULL DEFAULT '{}',
      created_block bigint NOT NULL,
      PRIMARY KEY (chain_id, address)
    )`);
    await q.query(`CREATE INDEX swap_pools_dex_idx ON swap_pools (chain_id, dex_key)`);
    await q.query(`CREATE TABLE swap_tokens (
      chain_id integer NOT NULL,
      address varchar(42) NOT NULL,
      symbol text NOT NULL,
      name text NOT NULL,
      decimals integer NOT NULL CHECK (decimals BETWEEN 0 AND 255),
      PRIMARY KEY (chain_id, address)
    )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE swap_tokens`);
    await q.query(`DROP TABLE swap_pools`);
    await q.query(`DROP TABLE swap_dex_cursors`);
  }
}
