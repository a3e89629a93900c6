import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { sql } from '../../../../database/sql';
import { SqlRunner, SqlStore } from '../../../../database/sql-store';
import type { TokenInfo } from '../../domain/types';

/** `swap_tokens`: the on-chain metadata of tokens held by discovered pools. */
@Injectable()
export class SwapTokenStore extends SqlStore {
  constructor(@InjectDataSource() dataSource: DataSource) {
    super(dataSource);
  }

  async insert(chainId: number, tokens: Array<Pick<TokenInfo, 'address' | 'symbol' | 'name' | 'decimals'>>, runner?: SqlRunner): Promise<void> {
    if (tokens.length === 0) return;
    await this.rows(
      sql`INSERT INTO swap_tokens (chain_id, address, symbol, name, decimals)
          SELECT ${chainId}::int, t.address, t.symbol, t.name, t.decimals
            FROM unnest(${tokens.map((t) => t.address)}::varchar[], ${tokens.map((t) => t.symbol)}::text[], ${tokens.map((t) => t.name)}::text[], ${tokens.map((t) => t.decimals)}::int[])
                 AS t(address, symbol, name, decimals)
          ON CONFLICT (chain_id, address) DO NOTHING`,
      runner,
    );
  }

  async list(chainId: number): Promise<TokenInfo[]> {
    const rows = await this.rows<{ address: string; symbol: string; name: string; decimals: number }>(
      sql`SELECT address, symbol, name, decimals FROM swap_tokens WHERE chain_id = ${chainId}::int`,
    );
    return rows.map((r) => ({ chainId, address: r.address, symbol: r.symbol, name: r.name, decimals: r.decimals, logoUrl: '' }));
  }
}
