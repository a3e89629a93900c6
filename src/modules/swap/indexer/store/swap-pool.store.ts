import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { sql } from '../../../../database/sql';
import { SqlRunner, SqlStore } from '../../../../database/sql-store';

/** A pool found in a factory's creation events (addresses lowercase). */
export interface DiscoveredPool {
  address: string;
  dexKey: string;
  token0: string;
  token1: string;
  /** V3 fee tier; null for V2 pairs. */
  fee: number | null;
  /** V3 only. */
  tickSpacing: number | null;
  /** V3: the tick bitmap words its positions touched (Mint events), ascending. */
  tickWords: number[];
  createdBlock: number;
}

/** `swap_pools`: every discovered pool of a chain. */
@Injectable()
export class SwapPoolStore extends SqlStore {
  constructor(@InjectDataSource() dataSource: DataSource) {
    super(dataSource);
  }

  async insert(chainId: number, pools: DiscoveredPool[], runner?: SqlRunner): Promise<void> {
    if (pools.length === 0) return;
    await this.rows(
      sql`INSERT INTO swap_pools (chain_id, address, dex_key, token0, token1, fee, tick_spacing, created_block)
          SELECT ${chainId}::int, p.address, p.dex_key, p.token0, p.token1, p.fee, p.tick_spacing, p.created_block
            FROM unnest(${pools.map((p) => p.address)}::varchar[], ${pools.map((p) => p.dexKey)}::varchar[], ${pools.map((p) => p.token0)}::varchar[],
                        ${pools.map((p) => p.token1)}::varchar[], ${pools.map((p) => p.fee)}::int[], ${pools.map((p) => p.tickSpacing)}::int[], ${pools.map((p) => p.createdBlock)}::bigint[])
                 AS p(address, dex_key, token0, token1, fee, tick_spacing, created_block)
          ON CONFLICT (chain_id, address) DO NOTHING`,
      runner,
    );
  }

  async list(chainId: number, dexKeys: string[]): Promise<DiscoveredPool[]> {
    const rows = await this.rows<{ address: string; dex_key: string; token0: string; token1: string; fee: number | null; tick_spacing: number | null; tick_words: number[]; created_block: string }>(
      sql`SELECT address, dex_key, token0, token1, fee, tick_spacing, tick_words, created_block FROM swap_pools
           WHERE chain_id = ${chainId}::int AND dex_key = ANY(${dexKeys}::varchar[]) ORDER BY created_block, address`,
    );
    return rows.map((r) => ({ address: r.address, dexKey: r.dex_key, token0: r.token0, token1: r.token1, fee: r.fee, tickSpacing: r.tick_spacing, tickWords: r.tick_words, createdBlock: Number(r.created_block) }));
  }

  /** V3 pools' bitmap words touched by new positions, merged into what is stored. */
  async addTickWords(chainId: number, words: Array<{ address: string; word: number }>, runner?: SqlRunner): Promise<void> {
    if (words.length === 0) return;
    await this.rows(
      sql`UPDATE swap_pools p
             SET tick_words = ARRAY(SELECT DISTINCT w FROM unnest(p.tick_words || n.words) AS w ORDER BY w)
            FROM (SELECT address, array_agg(word) AS words FROM unnest(${words.map((w) => w.address)}::varchar[], ${words.map((w) => w.word)}::int[]) AS x(address, word) GROUP BY address) n
           WHERE p.chain_id = ${chainId}::int AND p.address = n.address`,
      runner,
    );
  }

  /** A DEX whose factory changed in the chains file: its pools are another deployment's. */
  async deleteDex(chainId: number, dexKey: string, runner?: SqlRunner): Promise<void> {
    await this.rows(sql`DELETE FROM swap_pools WHERE chain_id = ${chainId}::int AND dex_key = ${dexKey}`, runner);
  }
}
