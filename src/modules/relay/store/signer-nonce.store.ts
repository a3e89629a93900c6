import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { joinSql, Sql, sql } from '../../../database/sql';
import { SqlRunner, SqlStore } from '../../../database/sql-store';

/** What a claim writes with the nonce it consumes (NonceManager.claim). */
export interface NonceRecord {
  /** CTEs of the same statement; they may read `claimed` (one row when the nonce was claimed, none otherwise). */
  ctes?: Sql[];
  /** A condition without which nothing is claimed. */
  gate?: Sql;
}

export type Consumed = 'claimed' | 'lost' | 'closed';

/** Every statement on `signer_nonces`: the next nonce per (chain, signer). */
@Injectable()
export class SignerNonceStore extends SqlStore {
  constructor(@InjectDataSource() dataSource: DataSource) {
    super(dataSource);
  }

  async next(chainId: number, address: string, runner?: SqlRunner, lock = false): Promise<bigint | null> {
    const row = await this.first<{ next_nonce: string }>(
      sql`SELECT next_nonce FROM signer_nonces WHERE chain_id = ${chainId} AND address = ${address}${lock ? sql` FOR UPDATE` : sql``}`,
      runner,
    );
    return row ? BigInt(row.next_nonce) : null;
  }

  /** Every counter of the chain with when it last moved, by address (lowercase): one read for a reconcile pass. */
  async counters(chainId: number): Promise<Map<string, { next: bigint; updatedAt: Date }>> {
    const rows = await this.rows<{ address: string; next_nonce: string; updated_at: Date }>(
      sql`SELECT address, next_nonce, updated_at FROM signer_nonces WHERE chain_id = ${chainId}`,
    );
    return new Map(rows.map((r) => [r.address, { next: BigInt(r.next_nonce), updatedAt: new Date(r.updated_at) }]));
  }

  /** Raises the counter to `atLeast` (never lowers it); the counter after. */
  async raiseTo(chainId: number, address: string, atLeast: bigint): Promise<bigint> {
    const row = await this.first<{ next_nonce: string }>(
      sql`INSERT INTO signer_nonces (chain_id, address, next_nonce) VALUES (${chainId}, ${address}, ${atLeast}::bigint)
          ON CONFLICT (chain_id, address) DO UPDATE SET next_nonce = GREATEST(signer_nonces.next_nonce, EXCLUDED.next_nonce),
            updated_at = CASE WHEN EXCLUDED.next_nonce > signer_nonces.next_nonce THEN now() ELSE signer_nonces.updated_at END
          RETURNING next_nonce`,
    );
    return BigInt(row!.next_nonce);
  }

  /**
   * The compare-and-set with the caller's writes, all in the statement's one snapshot: the
   * counter moves only if it still holds `nonce` and the gate holds.
   */
  async consume(chainId: number, address: string, nonce: bigint, record: NonceRecord, runner?: SqlRunner): Promise<Consumed> {
    const gate = record.gate ?? sql`true`;
    const ctes = record.ctes?.length ? sql`, ${joinSql(record.ctes)}` : sql``;
    const row = await this.first<{ claimed: number; open: boolean }>(
      sql`WITH claimed AS (
           UPDATE signer_nonces SET next_nonce = next_nonce + 1, updated_at = now()
            WHERE chain_id = ${chainId} AND address = ${address} AND next_nonce = ${nonce}::bigint AND (${gate})
        RETURNING next_nonce
         )${ctes}
         SELECT (SELECT count(*) FROM claimed)::int AS claimed, (${gate}) AS open`,
      runner,
      'generic',
    );
    if (row?.claimed === 1) return 'claimed';
    return row?.open === false ? 'closed' : 'lost';
  }
}
