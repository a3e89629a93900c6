import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { sql } from '../../../../database/sql';
import { SqlRunner, SqlStore } from '../../../../database/sql-store';

/** `swap_dex_cursors`: per DEX of a chain, the last block whose factory creation events are indexed. */
@Injectable()
export class DexCursorStore extends SqlStore {
  constructor(@InjectDataSource() dataSource: DataSource) {
    super(dataSource);
  }

  async get(chainId: number, dexKey: string): Promise<{ factory: string; lastBlock: number } | null> {
    const row = await this.first<{ factory: string; last_block: string }>(sql`SELECT factory, last_block FROM swap_dex_cursors WHERE chain_id = ${chainId}::int AND dex_key = ${dexKey}`);
    return row ? { factory: row.factory, lastBlock: Number(row.last_block) } : null;
  }

  /** The DEX keys with a cursor on the chain. */
  async keys(chainId: number): Promise<string[]> {
    return (await this.rows<{ dex_key: string }>(sql`SELECT dex_key FROM swap_dex_cursors WHERE chain_id = ${chainId}::int`)).map((r) => r.dex_key);
  }

  /** Moves the cursors forward only (a slower writer never takes one back). */
  async advance(chainId: number, cursors: Array<{ dexKey: string; factory: string; lastBlock: number }>, runner?: SqlRunner): Promise<void> {
    if (cursors.length === 0) return;
    await this.rows(
      sql`INSERT INTO swap_dex_cursors (chain_id, dex_key, factory, last_block)
          SELECT ${chainId}::int, c.dex_key, c.factory, c.last_block
            FROM unnest(${cursors.map((c) => c.dexKey)}::varchar[], ${cursors.map((c) => c.factory)}::varchar[], ${cursors.map((c) => c.lastBlock)}::bigint[]) AS c(dex_key, factory, last_block)
          ON CONFLICT (chain_id, dex_key) DO UPDATE SET factory = EXCLUDED.factory, last_block = EXCLUDED.last_block, updated_at = now()
           WHERE swap_dex_cursors.factory <> EXCLUDED.factory OR swap_dex_cursors.last_block < EXCLUDED.last_block`,
      runner,
    );
  }

  async delete(chainId: number, dexKey: string, runner?: SqlRunner): Promise<void> {
    await this.rows(sql`DELETE FROM swap_dex_cursors WHERE chain_id = ${chainId}::int AND dex_key = ${dexKey}`, runner);
  }
}
