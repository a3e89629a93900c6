import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { joinSql, rawSql, Sql, sql } from '../../../database/sql';
import { hydrate } from '../../../database/hydrate';
import { SqlRunner, SqlStore } from '../../../database/sql-store';
import type { AccountCounters, BatchReservation, RaiseRequest, ReservationRequest } from '../../accounts';
import { batchReservationCtes, maxRetriesOf, raiseEntryCte, raiseReservationCte, reservationCte, reserveEntriesCte, reserveEntryCte, settleCoveredManyCtes, settleCoveredUpdate, settleEntriesCte, settleEntryCte } from '../../accounts/statements';
import { policySettleCtes, policySettleManyCtes } from '../../policies/statements';
import type { TxNotification } from '../../tx-events';
import { outboxInsert } from '../../tx-events/statements';
import { FeeSettings } from '../core/fees';
import { finalityMove, IN_FLIGHT, MINED, Move, move, SENT, Stage, statusOf } from '../core/stage';
import { deleteBroadcastsCte, markAcceptedUpdate, markMinedCte, markMinedManyCte, unmarkedTxIds } from './relay-broadcast.store';
import { CancelReason, RelayTransactionEntity } from './relay-transaction.entity';
import { moveSet, movesSet, moveWhere, payloadWithStages, STAGE_COLUMNS } from './relay-transaction.sql';

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

/** One covered settlement of a batch (`settleCoveredMany`): what `settleCovered` takes for one row. */
export interface CoveredSettlement {
  tx: Pick<RelayTransactionEntity, 'id' | 'estimatedCostMicro'>;
  m: Move;
  fields: SettledFields;
  notification: TxNotification;
  counters: AccountCounters;
}

export type SettledFields = Pick<RelayTransactionEntity, 'executionTxHash' | 'costMicro' | 'isAccountCharged' | 'receipt' | 'revertReason' | 'error' | 'latencyMs' | 'failureReason'> &
  Partial<Pick<RelayTransactionEntity, 'finalizedAt' | 'nativePriceUsd'>>;

/** Every statement on `relay_transactions`; the ones that span tables are composed from the owning stores' fragments. */
@Injectable()
export class RelayTransactionStore extends SqlStore {
  constructor(@InjectDataSource() dataSource: DataSource) {
    super(dataSource);
  }

  /**
   * The row by id. A prepared statement, hydrated as TypeORM's finders would (`hydrate`): every
   * status read (GET /api/tx, the sync wait, sockets) is this read, and TypeORM built, sent
   * unnamed and had PostgreSQL plan the same query anew each time.
   */
  async findById(id: string, runner?: SqlRunner): Promise<RelayTransactionEntity | null> {
    const row = await this.first<Record<string, unknown>>(sql`SELECT * FROM relay_transactions WHERE id = ${id}::uuid`, runner, 'generic');
    return row ? hydrate(this.dataSource, RelayTransactionEntity, row) : null;
  }

  /** The rows of these ids that exist, in no particular order (one query). */
  async findByIds(ids: readonly string[], runner?: SqlRunner): Promise<RelayTransactionEntity[]> {
    if (ids.length === 0) return [];
    const rows = await this.rows<Record<string, unknown>>(sql`SELECT * FROM relay_transactions WHERE id = ANY(${[...ids]}::uuid[])`, runner, 'generic');
    return rows.map((row) => hydrate(this.dataSource, RelayTransactionEntity, row));
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
      'generic',
    );
  }

  /**
   * `insertReserved` for many submissions of ONE account in ONE statement: the account locked
   * once, the reservations accepted in `items`' order while every limit holds
   * (`batchReservationCtes`), and for each accepted one its reserve entry, its row and its status
   * event, in that order. Every item has the same fields set (the columns are the first item's).
   * The accepted rows' timestamps by id; an item absent from the map was refused.
   */
  async insertReservedMany(
    batch: BatchReservation,
    items: ReadonlyArray<{ tx: RelayTransactionEntity; amountMicro: bigint; reference: string; chainId: number; notification: TxNotification }>,
  ): Promise<Map<string, StageStamps & { updated_at: Date }>> {
    const keys = this.columns(items[0].tx, ['createdAt', 'updatedAt']).map((c) => c.property);
    const columns = keys.map((key) => {
      const type = this.columnType(key);
      const name = this.columnName(key);
      const alias = rawSql(`c_${name}`);
      // jsonb travels as text (a JS array of strings), cast where it is written.
      const array = sql`${items.map((i) => this.stored(i.tx[key] ?? null, type))}::${rawSql(type === 'jsonb' ? 'text' : type)}[]`;
      return { name: rawSql(name), alias, array, value: type === 'jsonb' ? sql`a.${alias}::jsonb` : sql`a.${alias}` };
    });
    const rows = await this.rows<StageStamps & { id: string; updated_at: Date }>(
      sql`WITH input AS (
                 SELECT * FROM unnest(${items.map((i) => i.amountMicro.toString())}::bigint[], ${items.map((i) => i.chainId)}::int[], ${items.map((i) => i.reference)}::varchar[],
                                      ${items.map((i) => JSON.stringify(i.notification))}::text[], ${items.map((_, n) => n)}::int[], ${joinSql(columns.map((c) => c.array))})
                   AS i(amount_micro, chain_id_of, reference, payload, ord, ${joinSql(columns.map((c) => c.alias))})
               ),
               ${batchReservationCtes(batch)}, ${reserveEntriesCte()},
               row AS (
                 INSERT INTO relay_transactions (${joinSql(columns.map((c) => c.name))})
                 SELECT ${joinSql(columns.map((c) => c.value))} FROM accepted a WHERE EXISTS (SELECT 1 FROM reservation) ORDER BY a.ord
                 RETURNING id, user_id, status, created_at, updated_at, signed_at, broadcast_at, mined_at, settled_at
               ),
               event AS (${outboxInsert(sql`SELECT row.id, row.user_id, row.status, NULL, ${payloadWithStages(sql`a.payload`)} FROM row JOIN accepted a ON a.c_id = row.id ORDER BY a.ord`)})
          SELECT id, created_at, updated_at, signed_at, broadcast_at, mined_at, settled_at FROM row`,
      undefined,
      'generic',
    );
    return new Map(rows.map((r) => [r.id, r]));
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
  async listForUser(userId: string, filter: { status?: string; chainId?: number; label?: string; after?: string }, limit: number): Promise<RelayTransactionEntity[]> {
    const where = [sql`t.user_id = ${userId}::uuid`];
    if (filter.status) where.push(sql`t.status = ${filter.status}`);
    if (filter.chainId !== undefined) where.push(sql`t.chain_id = ${filter.chainId}::int`);
    if (filter.label !== undefined) where.push(sql`t.label = ${filter.label}`);
    if (filter.after) where.push(sql`(t.created_at, t.id) < (SELECT c.created_at, c.id FROM relay_transactions c WHERE c.id = ${filter.after}::uuid)`);
    const rows = await this.rows<Record<string, unknown>>(
      sql`SELECT t.* FROM relay_transactions t WHERE ${joinSql(where, rawSql(' AND '))} ORDER BY t.created_at DESC, t.id DESC LIMIT ${limit}::int`,
    );
    return rows.map((row) => hydrate(this.dataSource, RelayTransactionEntity, row));
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
   * Rows and broadcasts are each locked in id (hash) order, as a batch of settlements takes them.
   */
  async markBroadcast(hashes: string[]): Promise<void> {
    const m = move('broadcast', ['signed']);
    await this.rows(sql`WITH locked AS (
        SELECT id FROM relay_transactions WHERE id IN (${unmarkedTxIds(hashes)}) AND ${moveWhere(m)} ORDER BY id FOR UPDATE
      ),
      moved AS (
        UPDATE relay_transactions SET ${moveSet(m)} WHERE id IN (SELECT id FROM locked) AND ${moveWhere(m)} RETURNING id
      )
      ${markAcceptedUpdate(hashes, sql`(SELECT count(*) FROM moved) >= 0`)}`,
      undefined,
      'generic',
    );
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
      undefined,
      'generic',
    );
  }

  /**
   * `settleCovered` for many rows in ONE statement (the receipts of a block, or whatever was
   * found while the previous batch settled): each row (still signed or broadcast, its copy's
   * reservation still the row's and covering its cost) with its status event, its mined broadcast
   * marked and its settle entry; each account and sponsoring policy once, with the sums of its
   * rows and its counters as the settlements in `items`' order would have left them; the events
   * and ledger entries are written in that order (the outbox's order is the webhooks'). The rows are
   * locked in id order before anything else, the accounts after them in id order, so concurrent
   * batches and batched broadcast marks never deadlock. A field missing from an item is written
   * as null (a row in flight has none of them set). The stage times and whether its account has a
   * low-balance transition to make, per row settled; a row absent from the map was not settled
   * here (finished meanwhile, a raise since, over its reservation: the general path's).
   */
  async settleCoveredMany(items: readonly CoveredSettlement[]): Promise<Map<string, StageStamps & { low_balance_due: boolean }>> {
    const settled = new Map<string, StageStamps & { low_balance_due: boolean }>();
    if (items.length === 0) return settled;
    const daily = items.find((i) => i.counters.daily)?.counters.daily ?? null;
    if (items.some((i) => i.counters.daily && (i.counters.daily.dayStart.getTime() !== daily?.dayStart.getTime() || i.counters.daily.now.getTime() !== daily.now.getTime()))) {
      throw new Error('the settlements of one batch must share their day window and clock');
    }
    const moves = items.map((i) => i.m);
    const fieldKeys = [...new Set(items.flatMap((i) => Object.keys(i.fields).filter((k) => i.fields[k as keyof SettledFields] !== undefined)))] as Array<keyof SettledFields>;
    const fieldColumns = fieldKeys.map((key, n) => {
      const [column] = this.columns({ [key]: items[0].fields[key] ?? null } as Partial<RelayTransactionEntity>, []);
      const type = this.columnType(key);
      const values = items.map((i) => this.stored(i.fields[key] ?? null, type));
      const alias = rawSql(`f${n}`);
      // jsonb travels as text (a JS array of strings), cast where it is written.
      const arrayType = rawSql(type === 'jsonb' ? 'text' : type);
      return { name: column.name, alias, array: sql`${values}::${arrayType}[]`, value: type === 'jsonb' ? sql`i.${alias}::jsonb` : sql`i.${alias}` };
    });
    const ids = items.map((i) => i.tx.id);
    const input = sql`SELECT * FROM unnest(${ids}::uuid[], ${items.map((i) => i.tx.estimatedCostMicro.toString())}::bigint[],
                  ${items.map((i) => (i.fields.costMicro ?? 0n).toString())}::bigint[], ${items.map((i) => i.fields.executionTxHash ?? '')}::varchar[],
                  ${moves.map((m) => m.to)}::varchar[], ${moves.map((m) => m.status)}::varchar[], ${items.map((i) => JSON.stringify(i.notification))}::text[],
                  ${items.map((_, n) => n)}::int[], ${items.map((i) => i.counters.success)}::boolean[], ${items.map((i) => i.counters.daily !== null)}::boolean[]
                  ${fieldColumns.length > 0 ? sql`, ${joinSql(fieldColumns.map((c) => c.array))}` : sql``})
                AS i(id, expected_micro, actual_micro, mined_hash, to_stage, to_status, payload, ord, success, daily${fieldColumns.length > 0 ? sql`, ${joinSql(fieldColumns.map((c) => c.alias))}` : sql``})`;
    const rows = await this.rows<StageStamps & { id: string; low_balance_due: boolean }>(
      sql`WITH input AS (${input}),
               locked AS (SELECT id FROM relay_transactions WHERE id = ANY(${ids}::uuid[]) AND ${moveWhere(moves[0])} ORDER BY id FOR UPDATE),
               row AS (
                 UPDATE relay_transactions t
                    SET ${movesSet(moves, sql`i.to_stage`, sql`i.to_status`)}, broadcast_at = COALESCE(t.broadcast_at, now()), mined_at = now()
                        ${fieldColumns.length > 0 ? sql`, ${joinSql(fieldColumns.map((c) => sql`${c.name} = ${c.value}`))}` : sql``}
                   FROM input i
                  WHERE t.id = i.id AND t.id IN (SELECT id FROM locked) AND t.${moveWhere(moves[0])}
                    AND t.estimated_cost_micro >= i.actual_micro AND t.estimated_cost_micro = i.expected_micro
              RETURNING t.id, t.user_id, t.estimated_cost_micro, t.policy_id, t.end_user, t.policy_reserved_micro, t.policy_window_start,
                        t.created_at, t.signed_at, t.broadcast_at, t.mined_at, t.settled_at,
                        i.actual_micro, i.mined_hash AS hash, i.payload, i.to_status, i.ord, i.success, i.daily
               ),
               event AS (${outboxInsert(sql`SELECT id, user_id, to_status, 'PENDING', ${payloadWithStages(rawSql('payload'))} FROM row ORDER BY ord`)}),
               ${markMinedManyCte('row')},
               source AS (
                 SELECT user_id, 'tx:' || id AS reference, estimated_cost_micro AS reserved_micro, actual_micro, success, daily, ord,
                        policy_id, end_user, policy_window_start, policy_reserved_micro
                   FROM row
               ),
               ${settleEntriesCte()},
               ${policySettleManyCtes('source')},
               ${settleCoveredManyCtes(daily)}
          SELECT r.id, r.created_at, r.signed_at, r.broadcast_at, r.mined_at, r.settled_at, a.low_balance_due FROM row r JOIN account a ON a.user_id = r.user_id`,
      undefined,
      'generic',
    );
    for (const { id, low_balance_due, ...stamps } of rows) settled.set(id, { ...stamps, low_balance_due });
    return settled;
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
      // awaiting_finality (stage in MINED, stored) is the partial index's predicate.
      .where('t.chain_id = :chainId AND t.awaiting_finality AND t.stage IN (:...mined) AND t.receipt IS NOT NULL', { chainId, mined: [...MINED] })
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

  private columnType(property: string): string {
    const column = this.dataSource.getMetadata(RelayTransactionEntity).findColumnWithPropertyName(property);
    if (!column) throw new Error(`relay_transactions has no column for ${property}`);
    return String(column.type);
  }

  private columnName(property: string): string {
    const column = this.dataSource.getMetadata(RelayTransactionEntity).findColumnWithPropertyName(property);
    if (!column) throw new Error(`relay_transactions has no column for ${property}`);
    return column.databaseName;
  }

  /** A value as the driver wants it for a column of `type`. */
  private stored(value: unknown, type: string): unknown {
    return value === null ? null : type === 'jsonb' ? JSON.stringify(value) : typeof value === 'bigint' ? value.toString() : value;
  }

  /** The fields as columns: names and casts from the entity's metadata, values as the driver wants them. */
  private columns(fields: Partial<RelayTransactionEntity>, skip: Array<keyof RelayTransactionEntity>): Array<{ property: keyof RelayTransactionEntity; name: Sql; value: Sql }> {
    const metadata = this.dataSource.getMetadata(RelayTransactionEntity);
    return Object.entries(fields)
      .filter(([property, value]) => value !== undefined && !skip.includes(property as keyof RelayTransactionEntity))
      .map(([property, value]) => {
        const column = metadata.findColumnWithPropertyName(property);
        if (!column) throw new Error(`relay_transactions has no column for ${property}`);
        const type = String(column.type);
        const stored = value === null ? null : type === 'jsonb' ? JSON.stringify(value) : typeof value === 'bigint' ? value.toString() : value;
        // Explicit casts: parameters in an INSERT ... SELECT list get no type from the target column.
        return { property: property as keyof RelayTransactionEntity, name: rawSql(column.databaseName), value: sql`${stored}::${rawSql(type)}` };
      });
  }
}
