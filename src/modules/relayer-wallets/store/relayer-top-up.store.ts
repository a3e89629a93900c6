import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { sql } from '../../../database/sql';
import { SqlStore } from '../../../database/sql-store';

export interface TopUpRow {
  id: string;
  chainId: number;
  address: string;
  treasury: string;
  amountWei: bigint;
  status: 'open' | 'mined' | 'failed';
  nonce: bigint | null;
  hash: string | null;
  raw: string | null;
  createdAt: Date;
  updatedAt: Date;
}

interface Raw {
  id: string;
  chain_id: number;
  address: string;
  treasury: string;
  amount_wei: string;
  status: TopUpRow['status'];
  nonce: string | null;
  hash: string | null;
  raw: string | null;
  created_at: Date;
  updated_at: Date;
}

const toRow = (r: Raw): TopUpRow => ({
  id: r.id,
  chainId: r.chain_id,
  address: r.address,
  treasury: r.treasury,
  amountWei: BigInt(r.amount_wei),
  status: r.status,
  nonce: r.nonce === null ? null : BigInt(r.nonce),
  hash: r.hash,
  raw: r.raw,
  createdAt: new Date(r.created_at),
  updatedAt: new Date(r.updated_at),
});

/** Every statement on `relayer_top_ups`: one open top-up per (chain, key), tracked to its receipt. */
@Injectable()
export class RelayerTopUpStore extends SqlStore {
  constructor(@InjectDataSource() dataSource: DataSource) {
    super(dataSource);
  }

  /** The new open top-up, or null when the key already has one (another worker opened it). */
  async open(chainId: number, address: string, treasury: string, amountWei: bigint): Promise<TopUpRow | null> {
    const row = await this.first<Raw>(
      sql`INSERT INTO relayer_top_ups (chain_id, address, treasury, amount_wei) VALUES (${chainId}, ${address.toLowerCase()}, ${treasury.toLowerCase()}, ${amountWei.toString()}::numeric)
          ON CONFLICT (chain_id, address) WHERE status = 'open' DO NOTHING RETURNING *`,
    );
    return row ? toRow(row) : null;
  }

  /** Records the signed transfer before it is broadcast, so a crash leaves something to rebroadcast. */
  async signed(id: string, nonce: bigint, hash: string, raw: string): Promise<void> {
    await this.rows(sql`UPDATE relayer_top_ups SET nonce = ${nonce.toString()}::bigint, hash = ${hash}, raw = ${raw}, updated_at = now() WHERE id = ${id}::bigint AND status = 'open'`);
  }

  /** Closes an open top-up; false when it was closed already. */
  async close(id: string, status: 'mined' | 'failed', error: string | null = null): Promise<boolean> {
    const rows = await this.rows(sql`UPDATE relayer_top_ups SET status = ${status}, error = ${error}, updated_at = now() WHERE id = ${id}::bigint AND status = 'open' RETURNING id`);
    return rows.length > 0;
  }

  async openOn(chainId: number): Promise<TopUpRow[]> {
    return (await this.rows<Raw>(sql`SELECT * FROM relayer_top_ups WHERE chain_id = ${chainId} AND status = 'open' ORDER BY id`)).map(toRow);
  }

  async recent(chainId: number, limit = 50): Promise<TopUpRow[]> {
    return (await this.rows<Raw>(sql`SELECT * FROM relayer_top_ups WHERE chain_id = ${chainId} ORDER BY created_at DESC LIMIT ${limit}`)).map(toRow);
  }
}
