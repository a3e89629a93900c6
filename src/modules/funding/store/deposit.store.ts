import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { sql } from '../../../database/sql';
import { SqlRunner, SqlStore } from '../../../database/sql-store';

/** A transfer to a deposit address as the chain showed it. */
export interface SeenTransfer {
  chainId: number;
  txHash: string;
  /** The log's index in its block; -1 for a native transfer (the transaction's value). */
  logIndex: number;
  userId: string;
  address: string;
  token: string;
  amount: bigint;
  blockNumber: number;
  blockHash: string;
}

export type DepositStatus = 'seen' | 'credited' | 'orphaned';

export interface DepositRow {
  id: string;
  chainId: number;
  txHash: string;
  logIndex: number;
  userId: string;
  address: string;
  token: string;
  amount: string;
  blockNumber: number;
  blockHash: string;
  status: DepositStatus;
  creditedMicro: string | null;
  nativePriceUsd: string | null;
  creditedAt: Date | null;
  sweptTxHash: string | null;
}

const COLUMNS = sql`id::text, chain_id AS "chainId", tx_hash AS "txHash", log_index AS "logIndex", user_id AS "userId", address, token,
  amount::text, block_number::int AS "blockNumber", block_hash AS "blockHash", status, credited_micro::text AS "creditedMicro",
  native_price_usd::text AS "nativePriceUsd", credited_at AS "creditedAt", swept_tx_hash AS "sweptTxHash"`;

/** Every statement on `deposits`. */
@Injectable()
export class DepositStore extends SqlStore {
  constructor(@InjectDataSource() dataSource: DataSource) {
    super(dataSource);
  }

  /**
   * Records transfers as seen, or moves a known one to the block the chain now shows it in (a
   * reorg that re-included it at the same position). A credited row never changes here.
   */
  async upsertSeen(transfers: SeenTransfer[]): Promise<void> {
    for (const t of transfers) {
      await this.rows(
        sql`INSERT INTO deposits (chain_id, tx_hash, log_index, user_id, address, token, amount, block_number, block_hash)
            VALUES (${t.chainId}, ${t.txHash}, ${t.logIndex}, ${t.userId}, ${t.address}, ${t.token}, ${t.amount}::numeric, ${t.blockNumber}, ${t.blockHash})
            ON CONFLICT (chain_id, tx_hash, log_index) DO UPDATE
               SET block_number = EXCLUDED.block_number, block_hash = EXCLUDED.block_hash, status = 'seen', updated_at = now()
             WHERE deposits.status <> 'credited'`,
      );
    }
  }

  /**
   * Seen rows of blocks [from, to] that the chain no longer shows (`present`: `txHash:logIndex` of
   * every transfer read from those blocks just now) are orphaned: their block was reorged away.
   */
  async orphanMissing(chainId: number, from: number, to: number, present: string[]): Promise<number> {
    const rows = await this.rows<{ id: string }>(
      sql`UPDATE deposits SET status = 'orphaned', updated_at = now()
           WHERE chain_id = ${chainId} AND status = 'seen' AND block_number BETWEEN ${from} AND ${to}
             AND NOT ((tx_hash || ':' || log_index) = ANY(${present}::text[]))
       RETURNING id`,
    );
    return rows.length;
  }

  /** Seen rows at least as deep as `safeBlock` (oldest first): due for crediting. */
  due(chainId: number, safeBlock: number, limit: number): Promise<DepositRow[]> {
    return this.rows<DepositRow>(
      sql`SELECT ${COLUMNS} FROM deposits WHERE chain_id = ${chainId} AND status = 'seen' AND block_number <= ${safeBlock} ORDER BY block_number, id LIMIT ${limit}`,
    );
  }

  /** Orphans a seen row whose block (`blockHash`) is not canonical any more. */
  async orphan(id: string, blockHash: string): Promise<void> {
    await this.rows(sql`UPDATE deposits SET status = 'orphaned', updated_at = now() WHERE id = ${id} AND status = 'seen' AND block_hash = ${blockHash}`);
  }

  /**
   * seen → credited, in the caller's transaction, only if the row is still seen in the block
   * that was checked; false when another watcher credited it first (or the row moved).
   */
  async markCredited(
    id: string,
    blockHash: string,
    credit: { micro: bigint; nativePriceUsd: string | null; creditBlock: number },
    runner: SqlRunner,
  ): Promise<boolean> {
    const rows = await this.rows<{ id: string }>(
      sql`UPDATE deposits SET status = 'credited', credited_micro = ${credit.micro}, native_price_usd = ${credit.nativePriceUsd}::numeric,
                              credit_block = ${credit.creditBlock}, credited_at = now(), updated_at = now()
           WHERE id = ${id} AND status = 'seen' AND block_hash = ${blockHash}
       RETURNING id`,
      runner,
    );
    return rows.length === 1;
  }

  /** The account's deposits (not orphaned), newest first, after the cursor id. */
  listForUser(userId: string, limit: number, beforeId?: string): Promise<DepositRow[]> {
    const after = beforeId ? sql`AND id < ${beforeId}::bigint` : sql``;
    return this.rows<DepositRow>(sql`SELECT ${COLUMNS} FROM deposits WHERE user_id = ${userId} AND status <> 'orphaned' ${after} ORDER BY id DESC LIMIT ${limit}`);
  }

  /** Deposit addresses of the chain holding credited deposits not swept yet. */
  async unsweptAddresses(chainId: number): Promise<Array<{ userId: string; address: string }>> {
    return this.rows(sql`SELECT DISTINCT user_id AS "userId", address FROM deposits WHERE chain_id = ${chainId} AND status = 'credited' AND swept_at IS NULL`);
  }

  /**
   * A lease on sweeping the unswept credited rows of an address on a chain: a row is leased by
   * one worker at a time (a concurrent UPDATE waits for the row and then finds it leased); a
   * worker that died mid-sweep loses the lease when it runs out. The ids leased, or none.
   */
  async leaseSweep(chainId: number, address: string, leaseMs: number): Promise<string[]> {
    const rows = await this.rows<{ id: string }>(
      sql`UPDATE deposits SET sweep_lease_until = now() + ${leaseMs} * interval '1 millisecond'
           WHERE chain_id = ${chainId} AND address = ${address} AND status = 'credited' AND swept_at IS NULL
             AND (sweep_lease_until IS NULL OR sweep_lease_until < now())
       RETURNING id::text`,
    );
    return rows.map((r) => r.id);
  }

  async markSwept(ids: string[], sweptTxHash: string | null): Promise<void> {
    await this.rows(sql`UPDATE deposits SET swept_at = now(), swept_tx_hash = ${sweptTxHash}, sweep_lease_until = NULL, updated_at = now() WHERE id = ANY(${ids}::bigint[])`);
  }

  async releaseSweep(ids: string[]): Promise<void> {
    await this.rows(sql`UPDATE deposits SET sweep_lease_until = NULL WHERE id = ANY(${ids}::bigint[])`);
  }
}
