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
      sql`INSERT INTO swap_pools (chain_id, address, dex_key, token0, token1, fee, created_block)
          SELECT ${chainId}::int, p.address, p.dex_key, p.token0, p.token1, p.fee, p.created_block
            FROM unnest(${pools.map((p) => p.address)}::varchar[], ${pools.map((p) => p.dexKey)}::varchar[], ${pools.map((p) => p.token0)}::varchar[],
                        ${pools.map((p) => p.token1)}::varchar[], ${pools.map((p) => p.fee)}::int[], ${pools.map((p) => p.createdBlock)}::bigint[])
                 AS p(address, dex_key, token0, token1, fee, created_block)
          ON CONFLICT (chain_id, address) DO NOTHING`,
      runner,
    );
  }

  async list(chainId: number, dexKeys: string[]): Promise<DiscoveredPool[]> {
    const rows = await this.rows<{ address: string; dex_key: string; token0: string; token1: string; fee: number | null; created_block: string }>(
      sql`SELECT address, dex_key, token0, token1, fee, created_block FROM swap_pools WHERE chain_id = ${chainId}::int AND dex_key = ANY(${dexKeys}::varchar[]) ORDER BY created_block, address`,
    );
    return rows.map((r) => ({ address: r.address, dexKey: r.dex_key, token0: r.token0, token1: r.token1, fee: r.fee, createdBlock: Number(r.created_block) }));
  }

  /** A DEX whose factory changed in the chains file: its pools are another deployment's. */
  async deleteDex(chainId: number, dexKey: string, runner?: SqlRunner): Promise<void> {
    await this.rows(sql`DELETE FROM swap_pools WHERE chain_id = ${chainId}::int AND dex_key = ${dexKey}`, runner);
  }
}
