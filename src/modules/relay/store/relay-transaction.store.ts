import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { joinSql, rawSql, Sql, sql } from '../../../database/sql';
import { SqlRunner, SqlStore } from '../../../database/sql-store';
import type { AccountCounters, RaiseRequest, ReservationRequest } from '../../accounts';
import { maxRetriesOf, raiseEntryCte, raiseReservationCte, reservationCte, reserveEntryCte, settleCoveredUpdate, settleEntryCte } from '../../accounts/statements';
import { policySettleCtes } from '../../policies/statements';
import type { TxNotification } from '../../tx-events';
import { outboxInsert } from '../../tx-events/statements';
import { FeeSettings } from '../core/fees';
import { finalityMove, IN_FLIGHT, MINED, Move, move, SENT, Stage, statusOf } from '../core/stage';
import { deleteBroadcastsCte, markAcceptedUpdate, markMinedCte, unmarkedTxIds } from './relay-broadcast.store';
import { CancelReason, RelayTransactionEntity } from './relay-transaction.entity';
import { moveSet, moveWhere, payloadWithStages, STAGE_COLUMNS } from './relay-transaction.sql';

/** The stage times of a row as a statement wrote them. */
export interface StageStamps {
  created_at: Date;
  signed_at: Date | null;
  broadcast_at: Date | null;
  mined_at: Date | null;
  settled_at: Date | null;
}

/** The entity's stage times as the statement wrote them. */
export function applyStamps(tx: RelayTransactionEntity, stamps: StageStamps): RelayTransactionEntity {
  return Object.assign(tx, { createdAt: stamps.created_at, signedAt: stamps.signed_at, broadcastAt: stamps.broadcast_at, minedAt: stamps.mined_at, settledAt: stamps.settled_at });
}

/** What `raiseReservation` found (the row as locked) and added; amounts as decimal strings. */
export interface RaiseOutcome {
  stage: Stage;
  reserved_micro: string;
  max_cost_micro: string | null;
  added_micro: string | null;
}

export type SettledFields = Pick<RelayTransactionEntity, 'executionTxHash' | 'costMicro' | 'isAccountCharged' | 'receipt' | 'revertReason' | 'error' | 'latencyMs' | 'failureReason'> &
  Partial<Pick<RelayTransactionEntity, 'finalizedAt' | 'nativePriceUsd'>>;

/** Every statement on `relay_transactions`; the ones that span tables are composed from the owning stores' fragments. */
@Injectable()
export class RelayTransactionStore extends SqlStore {
  constructor(@InjectDataSource() dataSource: DataSource) {
    super(dataSource);
  }

  findById(id: string, runner?: SqlRunner): Promise<RelayTransactionEntity | null> {
    return this.manager(runner).findOneBy(RelayTransactionEntity, { id });
  }

  /** Final rows (EXECUTED/FAILED) for the chain audit, oldest first, after the `after` id cursor within the same created_at order. */
  finalForAudit(
    filter: { chainId?: number; since?: Date; until?: Date; userId?: string; minedOnly?: boolean },
    limit: number,
    after?: { createdAt: Date; id: string },
  ): Promise<RelayTransactionEntity[]> {
    const q = this.manager()
      .createQueryBuilder(RelayTransactionEntity, 't')
      .where('t.status IN (:...final)', { final: [statusOf('executed'), statusOf('failed')] });
    // Settled on chain: executed or reverted (a row failed before anything was mined cost nothing).
    if (filter.minedOnly) q.andWhere('t.stage IN (:...mined)', { mined: ['executed', 'reverted', 'mined_executed', 'mined_reverted'] });
    if (filter.until) q.andWhere('t.created_at < :until', { until: filter.until });
    if (filter.chainId !== undefined) q.andWhere('t.chain_id = :chainId', { chainId: filter.chainId });
    if (filter.since) q.andWhere('t.created_at >= :since', { since: filter.since });
    if (filter.userId) q.andWhere('t.user_id = :userId', { userId: filter.userId });
    // Keyset on milliseconds: the cursor comes back as a JS Date, which drops PostgreSQL's microseconds.
    if (after) q.andWhere("(date_trunc('milliseconds', t.created_at), t.id) > (:afterAt, :afterId)", { afterAt: after.createdAt, afterId: after.id });
    return q.orderBy("date_trunc('milliseconds', t.created_at)", 'ASC').addOrderBy('t.id', 'ASC').limit(limit).getMany();
  }

  /** In-flight transactions created before `before`, oldest first (PENDING is exactly the in-flight stages, and it is indexed). */
  inFlightBefore(before: Date, limit: number): Promise<RelayTransactionEntity[]> {
    return this.manager()
      .createQueryBuilder(RelayTransactionEntity, 't')
      .where('t.status = :pending', { pending: statusOf('accepted') })
      .andWhere('t.created_at < :before', { before })
      .orderBy('t.created_at', 'ASC')
      .limit(limit)
      .getMany();
  }

  /** Rows signed by `sender` (a relayer key) on `chainId` and still on a node: a retiring key waits for them. */
  async sentBy(chainId: number, sender: string): Promise<number> {
    const row = await this.first<{ n: number }>(
      sql`SELECT count(*)::int AS n FROM relay_transactions WHERE chain_id = ${chainId} AND lower(sender) = ${sender.toLowerCase()} AND stage = ANY(${[...SENT]}::varchar[])`,
    );
    return row?.n ?? 0;
  }

  /**
   * What a derived sender's other in-flight rows (same account, path and scheme on the chain) may
   * still spend at worst: gas limit × max price + value, in wei. Its top-up covers these too, so
   * rows funded at once never leave the key short.
   */
  async derivedInFlightWorstCase(tx: Pick<RelayTransactionEntity, 'id' | 'chainId' | 'userId' | 'derivationPath' | 'derivationScheme'>): Promise<bigint> {
    const row = await this.first<{ wei: string }>(
      sql`SELECT COALESCE(sum(COALESCE(gas_limit, 0) * COALESCE(max_fee_per_gas, gas_price, 0) + value), 0)::text AS wei
            FROM relay_transactions
           WHERE chain_id = ${tx.chainId} AND user_id = ${tx.userId}::uuid AND derivation_path = ${tx.derivationPath}
             AND derivation_scheme IS NOT DISTINCT FROM ${tx.derivationScheme} AND id <> ${tx.id}::uuid
             AND stage = ANY(${[...IN_FLIGHT]}::varchar[])`,
    );
    return BigInt(row?.wei ?? '0');
  }

  /** Of these ids, the rows still signed or broadcast (in flight on a node). */
  async stillSent(ids: string[]): Promise<Set<string>> {
    if (ids.length === 0) return new Set();
    const rows = await this.rows<{ id: string }>(sql`SELECT id FROM relay_transactions WHERE id = ANY(${ids}::uuid[]) AND stage = ANY(${[...SENT]}::varchar[])`);
    return new Set(rows.map((r) => r.id));
  }

  /**
   * An accepted submission as ONE statement: the account's reservation within every limit and
   * its reserve entry, the row and its status event, each written only when the reservation
   * was allowed. The row's timestamps, or undefined when the reservation was refused.
   */
  insertReserved(tx: RelayTransactionEntity, reservation: ReservationRequest, notification: TxNotification, runner?: SqlRunner): Promise<(StageStamps & { updated_at: Date }) | undefined> {
    const columns = this.columns(tx, ['createdAt', 'updatedAt']);
    return this.first(
      sql`WITH ${reservationCte(reservation)}, ${reserveEntryCte(reservation.amountMicro, reservation.reference)},
               row AS (
                 INSERT INTO relay_transactions (${joinSql(columns.map((c) => c.name))})
                 SELECT ${joinSql(columns.map((c) => c.value))} FROM reservation
                 RETURNING created_at, updated_at, signed_at, broadcast_at, mined_at, settled_at
               ),
               event AS (${outboxInsert(sql`SELECT ${tx.id}::uuid, ${tx.userId}::uuid, ${tx.status}, NULL, ${payloadWithStages(JSON.stringify(notification))} FROM row`)})
          SELECT created_at, updated_at, signed_at, broadcast_at, mined_at, settled_at FROM row`,
      runner,
      // Every accepted submission: parsed and planned once per connection.
      { prepared: true },
    );
  }

  /**
   * A fee raise as ONE statement: the row locked (in flight), and when its reservation is below
   * `r.totalMicro` and the submission's maxUSD allows that much, the account's reservation
   * raised by the difference within every limit, its `raise` ledger entry and the row's
   * `estimated_cost_micro` (what settlement releases from), each written only with the others.
   * Returns the row as locked (stage, reservation before, maxUSD) and the amount added, null
   * when nothing was added; undefined when the row does not exist.
   */
  raiseReservation(txId: string, r: RaiseRequest, memo: string): Promise<RaiseOutcome | undefined> {
    const total = sql`${r.totalMicro}::bigint`;
    return this.first<RaiseOutcome>(
      sql`WITH target AS (
                 SELECT id, user_id, stage, estimated_cost_micro, max_cost_micro FROM relay_transactions WHERE id = ${txId}::uuid FOR UPDATE
               ),
               raise_request AS (
                 SELECT user_id, ${total} - estimated_cost_micro AS delta_micro FROM target
                  WHERE stage = ANY(${[...IN_FLIGHT]}::varchar[]) AND estimated_cost_micro < ${total}
                    AND (max_cost_micro IS NULL OR max_cost_micro >= ${total})
               ),
               ${raiseReservationCte(r)}, ${raiseEntryCte(`tx:${txId}`, memo)},
               raised AS (
                 UPDATE relay_transactions SET estimated_cost_micro = ${total}, updated_at = now()
                  WHERE id = ${txId}::uuid AND EXISTS (SELECT 1 FROM reservation)
               )
          SELECT t.stage, t.estimated_cost_micro::text AS reserved_micro, t.max_cost_micro::text AS max_cost_micro,
                 (SELECT delta_micro::text FROM reservation) AS added_micro
            FROM target t`,
    );
  }

  /** GET /api/txs: newest first, after the `after` row (keyset on created_at, id), filtered. */
  listForUser(userId: string, filter: { status?: string; chainId?: number; label?: string; after?: string }, limit: number): Promise<RelayTransactionEntity[]> {
    const qb = this.manager()
      .createQueryBuilder(RelayTransactionEntity, 't')
      .where('t.user_id = :userId', { userId })
      .orderBy('t.created_at', 'DESC')
      .addOrderBy('t.id', 'DESC')
      .limit(limit);
    if (filter.status) qb.andWhere('t.status = :status', { status: filter.status });
    if (filter.chainId !== undefined) qb.andWhere('t.chain_id = :chainId', { chainId: filter.chainId });
    if (filter.label !== undefined) qb.andWhere('t.label = :label', { label: filter.label });
    if (filter.after) qb.andWhere('(t.created_at, t.id) < (SELECT c.created_at, c.id FROM relay_transactions c WHERE c.id = :after)', { after: filter.after });
    return qb.getMany();
  }

  async belongsTo(txId: string, userId: string): Promise<boolean> {
    return (await this.manager().countBy(RelayTransactionEntity, { id: txId, userId })) > 0;
  }

  /** A row written inside the caller's transaction (a feature's `within`, exchange actions). */
  async insert(tx: RelayTransactionEntity, runner: SqlRunner): Promise<void> {
    // INSERT ... RETURNING fills the entity's generated columns (id when absent, created_at, updated_at).
    await this.manager(runner).insert(RelayTransactionEntity, tx);
  }

  /**
   * The condition of a first signature: the row is accepted and holds no nonce yet. It locks the
   * row, so a concurrent move out of accepted (a client's cancel, an expiry) either commits first
   * and closes the gate, or waits for the claim and then finds the row signed.
   */
  claimOpen(txId: string): Sql {
    return sql`EXISTS (SELECT 1 FROM relay_transactions WHERE id = ${txId}::uuid AND stage = 'accepted' FOR UPDATE)`;
  }

  /** The CTE `signed_row`: sender, nonce and hash of a first signature (accepted → signed), only when `claimed` has a row. */
  signedCte(txId: string, sender: string, nonce: bigint, hash: string): Sql {
    const m = move('signed', ['accepted']);
    return sql`signed_row AS (
             UPDATE relay_transactions SET sender = ${sender.toLowerCase()}, nonce = ${nonce}::bigint, execution_tx_hash = ${hash}, ${moveSet(m)}
              WHERE id = ${txId}::uuid AND ${moveWhere(m)} AND EXISTS (SELECT 1 FROM claimed)
           )`;
  }

  /** The CTE `replaced_row`: the hash and fees of a replacement at the row's nonce (the stage stays). */
  replacedCte(txId: string, hash: string, fees: FeeSettings): Sql {
    const legacy = fees.type === 'legacy';
    return sql`replaced_row AS (
             UPDATE relay_transactions SET execution_tx_hash = ${hash}, updated_at = now(),
                    gas_price = ${legacy ? fees.gasPrice.toString() : null}::numeric,
                    max_fee_per_gas = ${legacy ? null : fees.maxFeePerGas.toString()}::numeric,
                    max_priority_fee_per_gas = ${legacy ? null : fees.maxPriorityFeePerGas.toString()}::numeric
              WHERE id = ${txId}::uuid AND stage = ANY(${[...SENT]}::varchar[])
           )`;
  }

  /** Runs the CTEs of a replacement (its broadcast row and the row's hash) as one statement. */
  async writeReplacement(ctes: Sql[]): Promise<void> {
    await this.rows(sql`WITH ${joinSql(ctes)} SELECT 1`);
  }

  /**
   * Broadcasts a node accepted, marked in one statement; their rows move signed → broadcast.
   * The rows are locked before the broadcasts (the scalar subquery runs `moved` to completion
   * first), the order settlement takes them in: the reverse order deadlocked with settlements
   * of the same transactions, and each deadlock held both statements for deadlock_timeout (1 s).
   */
  async markBroadcast(hashes: string[]): Promise<void> {
    const m = move('broadcast', ['signed']);
    await this.rows(sql`WITH moved AS (
        UPDATE relay_transactions SET ${moveSet(m)} WHERE id IN (${unmarkedTxIds(hashes)}) AND ${moveWhere(m)} RETURNING id
      )
      ${markAcceptedUpdate(hashes, sql`(SELECT count(*) FROM moved) >= 0`)}`);
  }

  /**
   * The row's nonce was consumed by another transaction, for good (NonceFate's `reissue`): its
   * signed transactions, none of which can ever be mined, are dropped and the row goes back to
   * accepted, to be signed again. False when the row had moved on.
   */
  async releaseNonce(txId: string): Promise<boolean> {
    const m = move('accepted', SENT);
    const rows = await this.rows(sql`WITH ${deleteBroadcastsCte(txId)}
      UPDATE relay_transactions SET nonce = NULL, execution_tx_hash = NULL, ${moveSet(m)}
       WHERE id = ${txId}::uuid AND ${moveWhere(m)} RETURNING id`);
    return rows.length > 0;
  }

  /**
   * A mined transaction whose reservation covers its cost, settled in ONE statement: the row
   * (only if still signed or broadcast), its status event, the mined broadcast marked, the
   * settle entry and the account. The row's stage times and whether the account now has a
   * low-balance transition to make, or undefined when nothing was settled. A copy whose
   * reservation is not the row's any more (a fee raise since) settles nothing here: the general
   * path then reads the row under its lock, so the daily amount is corrected by what was reserved.
   */
  async settleCovered(
    tx: RelayTransactionEntity,
    m: Move,
    fields: SettledFields,
    notification: TxNotification,
    counters: AccountCounters,
  ): Promise<(StageStamps & { low_balance_due: boolean }) | undefined> {
    const cost = fields.costMicro ?? 0n;
    return this.first<StageStamps & { low_balance_due: boolean }>(
      sql`WITH row AS (
                 UPDATE relay_transactions
                    SET ${moveSet(m)}, broadcast_at = COALESCE(broadcast_at, now()), mined_at = now(), ${this.assignments(fields)}
                  WHERE id = ${tx.id}::uuid AND ${moveWhere(m)} AND estimated_cost_micro >= ${cost}::bigint AND estimated_cost_micro = ${tx.estimatedCostMicro}::bigint
              RETURNING id, user_id, estimated_cost_micro, policy_id, end_user, policy_reserved_micro, policy_window_start, ${STAGE_COLUMNS}
               ),
               event AS (${outboxInsert(sql`SELECT id, user_id, ${m.status}, 'PENDING', ${payloadWithStages(JSON.stringify(notification))} FROM row`)}),
               ${markMinedCte(fields.executionTxHash ?? '', sql`EXISTS (SELECT 1 FROM row)`)},
               source AS (SELECT user_id, 'tx:' || id AS reference, estimated_cost_micro AS reserved_micro FROM row),
               ${settleEntryCte(cost)},
               ${policySettleCtes('row', cost)},
               account AS (${settleCoveredUpdate(cost, counters)})
          SELECT ${STAGE_COLUMNS}, (SELECT bool_or(low_balance_due) FROM account) AS low_balance_due FROM row WHERE EXISTS (SELECT 1 FROM account)`,
    );
  }

  /** The row locked for a settlement in the caller's transaction (the general path). */
  lockForSettlement(txId: string, runner: SqlRunner): Promise<RelayTransactionEntity | null> {
    return this.manager(runner).findOne(RelayTransactionEntity, { where: { id: txId }, lock: { mode: 'pessimistic_write' } });
  }

  /** A move to a final stage with its fields, in the caller's transaction; `minedHash` marks that broadcast. */
  async finish(txId: string, m: Move, fields: Partial<SettledFields>, minedHash: string | null, runner: SqlRunner): Promise<StageStamps | undefined> {
    const mined = minedHash === null ? sql`` : sql`, ${markMinedCte(minedHash)}`;
    return this.first<StageStamps>(
      sql`WITH row AS (
            UPDATE relay_transactions SET ${moveSet(m)}${minedHash === null ? sql`` : sql`, broadcast_at = COALESCE(broadcast_at, now()), mined_at = now()`}, ${this.assignments(fields)}
             WHERE id = ${txId}::uuid AND ${moveWhere(m)} RETURNING id, ${STAGE_COLUMNS}
          )${mined}
          SELECT ${STAGE_COLUMNS} FROM row`,
      runner,
    );
  }

  /**
   * Mined rows on `chainId` (settled, not yet final) whose receipt's block is at or below
   * `maxBlock` (the chain's head less its confirmation depth), oldest block first.
   */
  settledAwaitingFinality(chainId: number, maxBlock: number, limit: number): Promise<RelayTransactionEntity[]> {
    return this.manager()
      .createQueryBuilder(RelayTransactionEntity, 't')
      .where('t.chain_id = :chainId AND t.stage IN (:...mined) AND t.receipt IS NOT NULL', { chainId, mined: [...MINED] })
      .andWhere("(t.receipt->>'blockNumber')::bigint <= :maxBlock", { maxBlock })
      .orderBy("(t.receipt->>'blockNumber')::bigint", 'ASC')
      .limit(limit)
      .getMany();
  }

  /**
   * Rows whose settled block the chain still holds at its confirmation depth: each moves from its
   * mined stage to its final one (`finalityMove`), one statement per mined stage. How many moved.
   */
  async markFinalized(rows: ReadonlyArray<Pick<RelayTransactionEntity, 'id' | 'stage'>>): Promise<number> {
    let moved = 0;
    for (const from of MINED) {
      const ids = rows.filter((r) => r.stage === from).map((r) => r.id);
      if (ids.length === 0) continue;
      const m = finalityMove(from);
      moved += (await this.rows(sql`UPDATE relay_transactions SET ${moveSet(m)}, finalized_at = now() WHERE id = ANY(${ids}::uuid[]) AND ${moveWhere(m)} RETURNING id`)).length;
    }
    return moved;
  }

  /**
   * A mined row corrected after a reorg moved its transaction, in the caller's transaction (the
   * row locked by `lockForSettlement`): the canonical receipt and hash, the cost, and the move
   * to the mined stage of the new outcome (`from` → `to`, a move of the table like any other;
   * the row stays where it is when only the block or the price changed). A final row is never
   * corrected. False when the row was not in `from`.
   */
  async correctSettled(
    txId: string,
    from: Stage,
    to: Stage,
    fields: Pick<RelayTransactionEntity, 'executionTxHash' | 'receipt' | 'costMicro' | 'failureReason'>,
    runner: SqlRunner,
  ): Promise<boolean> {
    const stays = from === to && MINED.includes(from);
    const m = stays ? null : move(to, [from]);
    const rows = await this.rows(
      sql`UPDATE relay_transactions SET ${m ? moveSet(m) : sql`updated_at = now()`}, ${this.assignments(fields)}
           WHERE id = ${txId}::uuid AND ${m ? moveWhere(m) : sql`stage = ${from}`} RETURNING id`,
      runner,
    );
    return rows.length > 0;
  }

  /**
   * Asks for the row's cancellation (a client's cancel, or its validUntil passing) while it is
   * sent and not final; the first reason stays. The row's stage, or undefined when it is not
   * in a sent stage (still accepted, or final).
   */
  async requestCancel(txId: string, reason: CancelReason): Promise<Stage | undefined> {
    const row = await this.first<{ stage: Stage }>(sql`UPDATE relay_transactions SET cancel_reason = COALESCE(cancel_reason, ${reason}), updated_at = now()
       WHERE id = ${txId}::uuid AND stage = ANY(${[...SENT]}::varchar[]) RETURNING stage`);
    return row?.stage;
  }

  /** In-flight rows whose validUntil has passed and whose cancellation is not yet requested, oldest deadline first. */
  expiredInFlight(now: Date, limit: number): Promise<RelayTransactionEntity[]> {
    return this.manager()
      .createQueryBuilder(RelayTransactionEntity, 't')
      .where('t.status = :pending', { pending: statusOf('accepted') })
      .andWhere('t.valid_until IS NOT NULL AND t.valid_until <= :now', { now })
      .andWhere('t.cancel_reason IS NULL')
      .orderBy('t.valid_until', 'ASC')
      .limit(limit)
      .getMany();
  }

  /** One more retry when the account's budget allows; undefined when it is spent or the row is no longer in flight. */
  countRetry(txId: string): Promise<{ retries: number; max_retries: number } | undefined> {
    const budget = maxRetriesOf(sql`t.user_id`);
    return this.first(sql`UPDATE relay_transactions t SET retries = t.retries + 1
        WHERE t.id = ${txId}::uuid AND t.stage = ANY(${[...IN_FLIGHT]}::varchar[]) AND t.retries < ${budget}
        RETURNING t.retries, ${budget} AS max_retries`);
  }

  async addFundingCost(txId: string, costWei: bigint): Promise<void> {
    await this.rows(sql`UPDATE relay_transactions SET funding_cost_wei = funding_cost_wei + ${costWei}::numeric WHERE id = ${txId}::uuid`);
  }

  async setFunding(txId: string, funding: { fundingTxHash?: string; fundingCostWei: string }): Promise<void> {
    await this.manager().update(RelayTransactionEntity, { id: txId }, funding);
  }

  /** `column = value` for each given field, with the column's name and type from the entity's metadata. */
  private assignments(fields: Partial<RelayTransactionEntity>): Sql {
    return joinSql(this.columns(fields, []).map((c) => sql`${c.name} = ${c.value}`));
  }

  /** The fields as columns: names and casts from the entity's metadata, values as the driver wants them. */
  private columns(fields: Partial<RelayTransactionEntity>, skip: Array<keyof RelayTransactionEntity>): Array<{ name: Sql; value: Sql }> {
    const metadata = this.dataSource.getMetadata(RelayTransactionEntity);
    return Object.entries(fields)
      .filter(([property, value]) => value !== undefined && !skip.includes(property as keyof RelayTransactionEntity))
      .map(([property, value]) => {
        const column = metadata.findColumnWithPropertyName(property);
        if (!column) throw new Error(`relay_transactions has no column for ${property}`);
        const type = String(column.type);
        const stored = value === null ? null : type === 'jsonb' ? JSON.stringify(value) : typeof value === 'bigint' ? value.toString() : value;
        // Explicit casts: parameters in an INSERT ... SELECT list get no type from the target column.
        return { name: rawSql(column.databaseName), value: sql`${stored}::${rawSql(type)}` };
      });
  }
}
