import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { sql } from '../../../database/sql';
import { SqlStore } from '../../../database/sql-store';

/** Every statement on `bridge_cursors`: per source chain, the last block the filler holds as final. */
@Injectable()
export class BridgeCursorStore extends SqlStore {
  constructor(@InjectDataSource() dataSource: DataSource) {
    super(dataSource);
  }

  async get(chainId: number): Promise<number | null> {
    const row = await this.first<{ final_block: string }>(sql`SELECT final_block::text FROM bridge_cursors WHERE chain_id = ${chainId}`);
    return row ? Number(row.final_block) : null;
  }

  /** Only forward: two fillers racing leave the further one. */
  async advance(chainId: number, finalBlock: number): Promise<void> {
    await this.rows(
      sql`INSERT INTO bridge_cursors (chain_id, final_block) VALUES (${chainId}, ${finalBlock})
          ON CONFLICT (chain_id) DO UPDATE SET final_block = GREATEST(bridge_cursors.final_block, EXCLUDED.final_block), updated_at = now()`,
    );
  }

  /** A chain restarted from genesis (a fresh devnet) is behind its cursor: start again from `finalBlock`. */
  async reset(chainId: number, finalBlock: number): Promise<void> {
    await this.rows(sql`INSERT INTO bridge_cursors (chain_id, final_block) VALUES (${chainId}, ${finalBlock})
                        ON CONFLICT (chain_id) DO UPDATE SET final_block = EXCLUDED.final_block, updated_at = now()`);
  }
}
