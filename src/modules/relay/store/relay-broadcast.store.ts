import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, In } from 'typeorm';
import { rawSql, Sql, sql } from '../../../database/sql';
import { SqlRunner, SqlStore } from '../../../database/sql-store';
import { FeeSettings, maxGasPrice } from '../core/fees';
import { RelayBroadcastEntity } from './relay-broadcast.entity';
import { inFlightTxIds, unfinalizedTxIds } from './relay-transaction.sql';

/** A transaction as signed: its bytes and hash. */
export interface SignedTx {
  raw: string;
  hash: string;
}

/** Every statement on `relay_broadcasts` (each signed transaction of a relayed one), and its fragments. */
@Injectable()
export class RelayBroadcastStore extends SqlStore {
  constructor(@InjectDataSource() dataSource: DataSource) {
    super(dataSource);
  }

  forTx(txId: string): Promise<RelayBroadcastEntity[]> {
    return this.manager().find(RelayBroadcastEntity, { where: { txId }, order: { id: 'ASC' } });
  }

  /** The transaction a signed hash belongs to, if any. */
  async txIdOf(hash: string): Promise<string | null> {
    const row = await this.manager().findOne(RelayBroadcastEntity, { where: { hash }, select: { txId: true } });
    return row?.txId ?? null;
  }

  /** Whether a signed hash is a cancellation (0-value self-transfer) rather than the row's own call. */
  async kindOf(hash: string): Promise<RelayBroadcastEntity['kind'] | null> {
    const row = await this.manager().findOne(RelayBroadcastEntity, { where: { hash }, select: { kind: true } });
    return row?.kind ?? null;
  }

  forTxs(txIds: string[]): Promise<RelayBroadcastEntity[]> {
    return this.manager().find(RelayBroadcastEntity, { where: { txId: In(txIds) }, order: { id: 'ASC' } });
  }

  /** A user-signed transaction's only broadcast, written with its row (funding-signed). */
  async insert(broadcast: Omit<RelayBroadcastEntity, 'id' | 'createdAt' | 'kind'>, runner: SqlRunner): Promise<void> {
    await this.manager(runner).insert(RelayBroadcastEntity, broadcast);
  }

  /**
   * Nonces of `sender` from `fromNonce` up that a transaction still in flight owns, and with
   * `settledUntilFinal` also one settled but not yet final at depth (a reorg may have dropped it
   * and its bytes are being sent again: its nonce is no gap to fill).
   */
  async ownedNonces(chainId: number, sender: string, fromNonce: bigint, settledUntilFinal = false): Promise<Set<string>> {
    const rows = await this.rows<{ nonce: string }>(ownedNoncesQuery(chainId, sender, fromNonce, settledUntilFinal));
    return new Set(rows.map((r) => r.nonce));
  }
}

/** RelayBroadcastStore.ownedNonces' statement. */
export function ownedNoncesQuery(chainId: number, sender: string, fromNonce: bigint, settledUntilFinal: boolean): Sql {
  const owners = settledUntilFinal ? sql`${inFlightTxIds()} UNION ALL ${unfinalizedTxIds(chainId, sender)}` : inFlightTxIds();
  return sql`SELECT DISTINCT nonce::text AS nonce FROM relay_broadcasts
              WHERE chain_id = ${chainId} AND sender = ${sender} AND nonce >= ${fromNonce}::bigint AND tx_id IN (${owners})`;
}

/**
 * The CTE `broadcast`: the signed transaction's row, so it can be sent again byte for byte.
 * With `onlyIfClaimed` it is written only when the statement's `claimed` CTE has a row (the
 * nonce claim of NonceManager). Explicit casts: INSERT ... SELECT parameters get no type from
 * the target columns.
 */
export function broadcastInsertCte(
  txId: string,
  chainId: number,
  sender: string,
  fees: FeeSettings,
  signed: SignedTx,
  nonce: bigint,
  onlyIfClaimed: boolean,
  kind: RelayBroadcastEntity['kind'] = 'call',
): Sql {
  const priority = fees.type === 'eip1559' ? fees.maxPriorityFeePerGas.toString() : null;
  return sql`broadcast AS (
             INSERT INTO relay_broadcasts (tx_id, hash, chain_id, sender, nonce, raw, max_fee_per_gas, max_priority_fee_per_gas, kind)
             SELECT ${txId}::uuid, ${signed.hash}::varchar, ${chainId}::int, ${sender.toLowerCase()}::varchar, ${nonce}::bigint, ${signed.raw}::text,
                    ${maxGasPrice(fees).toString()}::numeric, ${priority}::numeric, ${kind}::varchar
             ${onlyIfClaimed ? sql`FROM claimed` : sql``}
           )`;
}

/** The transactions whose broadcasts among `hashes` are not marked yet (a read: it locks nothing). */
export function unmarkedTxIds(hashes: string[]): Sql {
  return sql`SELECT tx_id FROM relay_broadcasts WHERE hash = ANY(${hashes}::varchar[]) AND broadcast_at IS NULL`;
}

/**
 * Marks broadcasts a node accepted, once; only when `when` holds, if given. A statement that also
 * moves the transactions' rows must lock those first (`when` referencing that CTE does it), as
 * settlement does (its row, then the mined broadcast): the other order deadlocked with it.
 */
export function markAcceptedUpdate(hashes: string[], when?: Sql): Sql {
  return sql`UPDATE relay_broadcasts SET broadcast_at = now()
               WHERE hash = ANY(${hashes}::varchar[]) AND hash IN (${unmarkedLocked(sql`${hashes}::varchar[]`)}) AND broadcast_at IS NULL${when ? sql` AND ${when}` : sql``}`;
}

/**
 * The unmarked broadcasts of `hashes`, locked in hash order: the statements that mark many
 * (broadcast marks, a batch of settlements) take them in the same order, so they never wait for
 * each other crosswise.
 */
function unmarkedLocked(hashes: Sql): Sql {
  return sql`SELECT hash FROM relay_broadcasts WHERE hash = ANY(${hashes}) AND broadcast_at IS NULL ORDER BY hash FOR UPDATE`;
}

/**
 * The CTE `accepted`: the mined broadcast was certainly accepted by a node (settlement marks it
 * when the receipt came before the batched mark); only when `when` holds, if given.
 */
export function markMinedCte(hash: string, when?: Sql): Sql {
  return sql`accepted AS (UPDATE relay_broadcasts SET broadcast_at = now() WHERE hash = ${hash} AND broadcast_at IS NULL${when ? sql` AND ${when}` : sql``})`;
}

/** `markMinedCte` for a batch: the mined broadcast of each row of `rows` (a CTE with a `hash` column, run to completion first). */
export function markMinedManyCte(rows: string): Sql {
  const hashes = sql`ARRAY(SELECT hash FROM ${rawSql(rows)})`;
  return sql`accepted AS (UPDATE relay_broadcasts SET broadcast_at = now() WHERE hash = ANY(${hashes}) AND hash IN (${unmarkedLocked(hashes)}) AND broadcast_at IS NULL)`;
}

/** The CTE `forgotten`: drops the signed transactions of a row that can never be mined (its nonce went to another). */
export function deleteBroadcastsCte(txId: string): Sql {
  return sql`forgotten AS (DELETE FROM relay_broadcasts WHERE tx_id = ${txId}::uuid)`;
}
