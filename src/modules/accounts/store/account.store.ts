import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { rawSql, Sql, sql } from '../../../database/sql';
import { SqlRunner, SqlStore } from '../../../database/sql-store';
import { AccountCounters, countersSet } from './account-counters';
import { AccountEntity } from './account.entity';
import { outboxInsert } from '../../tx-events/statements';
import type { LowBalanceEvent } from '../../tx-events';
import { reserveEntryCte } from './ledger-entry.store';

/** A reservation request: the account, the amount and the limits' moment. */
export interface ReservationRequest {
  userId: string;
  amountMicro: bigint;
  reference: string;
  chainId: number;
  now: Date;
  dayStart: Date;
  /**
   * Also refused while the account has an enabled sponsorship policy: a submission that did not
   * read its policies first (the usual account has none) reserves in its one statement only when
   * that still holds, and plans its sponsorship when it does not (PendingWriter).
   */
  unlessSponsored?: boolean;
}

/** Every statement on `accounts`, and the fragments other statements compose it into. */
@Injectable()
export class AccountStore extends SqlStore {
  constructor(@InjectDataSource() dataSource: DataSource) {
    super(dataSource);
  }

  findById(id: string, runner?: SqlRunner): Promise<AccountEntity | null> {
    return this.manager(runner).findOneBy(AccountEntity, { id });
  }

  findByAddress(address: string): Promise<AccountEntity | null> {
    return this.manager().findOneBy(AccountEntity, { address });
  }

  /** Newest first (the operator CLI's `accounts list`). */
  list(limit: number, offset: number): Promise<AccountEntity[]> {
    return this.manager().find(AccountEntity, { order: { createdAt: 'DESC', id: 'DESC' }, take: limit, skip: offset });
  }

  /** The new account's id, or null when the address has one already. */
  async insertIfAbsent(address: string, runner: SqlRunner): Promise<string | null> {
    const row = await this.first<{ id: string }>(sql`INSERT INTO accounts (address) VALUES (${address}) ON CONFLICT (address) DO NOTHING RETURNING id`, runner);
    return row?.id ?? null;
  }

  async update(id: string, patch: Partial<Omit<AccountEntity, 'defaultRelayAccount'>>): Promise<void> {
    await this.manager().update(AccountEntity, { id }, patch);
  }

  /**
   * FOR NO KEY UPDATE, not FOR UPDATE: rows referencing the account (transactions, ledger
   * entries) take KEY SHARE on it, which FOR UPDATE would conflict with (a deadlock between two
   * submissions that inserted their rows first); balances are never part of the key.
   */
  lockBalances(id: string, runner: SqlRunner): Promise<AccountEntity | null> {
    return this.manager(runner).findOne(AccountEntity, { where: { id }, lock: { mode: 'for_no_key_update' } });
  }

  async setBalances(id: string, availableMicro: bigint, pendingMicro: bigint, runner: SqlRunner): Promise<void> {
    await this.manager(runner).update(AccountEntity, { id }, { availableMicro, pendingMicro });
  }

  /** A reservation with its reserve entry (see reservationCte); the new balances, or null when refused. */
  reserve(r: ReservationRequest, runner: SqlRunner): Promise<{ available_micro: string; pending_micro: string } | undefined> {
    return this.first(sql`WITH ${reservationCte(r)}, ${reserveEntryCte(r.amountMicro, r.reference)} SELECT available_micro, pending_micro FROM reservation`, runner);
  }

  /**
   * ONE statement: the low-balance state follows the balance (set below the threshold, cleared
   * above it, kept at it) and, only when this statement set it, the event goes into the outbox.
   * Concurrent callers cannot both set it, so each crossing yields exactly one event.
   */
  async lowBalanceTransition(userId: string): Promise<LowBalanceEvent | null> {
    const row = await this.first<{ payload: LowBalanceEvent }>(
      sql`WITH moved AS (
            UPDATE accounts
               SET low_balance_alerted = CASE WHEN available_micro < low_balance_threshold_micro THEN true ELSE false END
             WHERE id = ${userId} AND ${lowBalanceDue('accounts')}
         RETURNING id, available_micro, low_balance_threshold_micro, low_balance_alerted
          ), event AS (
            SELECT id, jsonb_build_object(
                     'event', 'account.low_balance',
                     'userId', id,
                     'availableBalance', available_micro::numeric / 1000000,
                     'threshold', low_balance_threshold_micro::numeric / 1000000,
                     'timestamp', to_char(now() AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')) AS payload
              FROM moved WHERE low_balance_alerted
          ), outbox AS (
            ${outboxInsert(sql`SELECT NULL::uuid, id, 'low_balance', NULL, payload FROM event`)} RETURNING payload
          )
          SELECT payload FROM outbox`,
    );
    return row?.payload ?? null;
  }

  async applyCounters(userId: string, counters: AccountCounters, runner: SqlRunner): Promise<void> {
    await this.rows(sql`UPDATE accounts SET ${countersSet(counters)} WHERE id = ${userId}`, runner);
  }
}

/**
 * The CTE `reservation`: ONE conditional UPDATE that moves `amountMicro` from available to
 * pending only when the balance, the per-tx limit, the daily limit of the window starting
 * `dayStart`, the chain and the breaker all allow it. One row (id, balances) when allowed, none
 * when refused, so whatever the statement writes from it is written only with the reservation.
 */
export function reservationCte(r: ReservationRequest): Sql {
  const amount = sql`${r.amountMicro}::bigint`;
  return sql`reservation AS (
         UPDATE accounts
            SET available_micro = available_micro - ${amount}, pending_micro = pending_micro + ${amount},
                daily_consumed_micro = ${consumedToday('accounts', r.dayStart)} + ${amount}, daily_updated_at = ${r.now}
          WHERE id = ${r.userId} AND ${withinLimits('accounts', amount, amount, r.chainId, r.dayStart)}
                ${r.unlessSponsored ? sql`AND NOT EXISTS (SELECT 1 FROM sponsorship_policies p WHERE p.user_id = accounts.id AND p.enabled)` : sql``}
      RETURNING id, available_micro, pending_micro
       )`;
}

/** What the reservations of one batch share: the account, the day window and clock, and whether an enabled policy refuses. */
export interface BatchReservation {
  userId: string;
  now: Date;
  dayStart: Date;
  unlessSponsored?: boolean;
}

/**
 * The CTEs `reserving`, `accepted` and `reservation` for many reservations of ONE account, from
 * an `input` CTE with one row per reservation (amount_micro, chain_id_of, ord). The account row
 * is locked once; a reservation is accepted when its own limits hold (per-tx, chain, breaker, no
 * enabled policy when asked) and the running sum of the accepted ones before it and itself,
 * in `ord` order, stays within the balance and the day's limit. `accepted` holds those rows;
 * `reservation` is the account's ONE update by their sum (one row when any was accepted).
 * Amounts are never negative, so the running sums only grow: the accepted ones are those
 * before the first the sums refuse. A later, smaller one might still have fitted; the caller
 * gives every refused one its own statement (ReservationQueue), which decides it exactly.
 */
export function batchReservationCtes(r: BatchReservation): Sql {
  return sql`reserving AS (
         SELECT a.id, a.available_micro, ${consumedToday('a', r.dayStart)} AS consumed_micro, a.daily_limit_micro, a.per_tx_limit_micro, a.disabled_chain_ids
           FROM accounts a
          WHERE a.id = ${r.userId}::uuid AND NOT (a.circuit_breaker_enabled AND a.failure_streak >= a.failure_streak_limit)
                ${r.unlessSponsored ? sql`AND NOT EXISTS (SELECT 1 FROM sponsorship_policies p WHERE p.user_id = a.id AND p.enabled)` : sql``}
            FOR UPDATE
       ),
       allowed AS (
         SELECT i.*, sum(i.amount_micro) OVER (ORDER BY i.ord) AS running_micro
           FROM input i, reserving a
          WHERE a.per_tx_limit_micro >= i.amount_micro AND NOT (i.chain_id_of = ANY (a.disabled_chain_ids))
       ),
       accepted AS (
         SELECT l.* FROM allowed l, reserving a
          WHERE l.running_micro <= a.available_micro AND a.consumed_micro + l.running_micro <= a.daily_limit_micro
       ),
       reservation AS (
         UPDATE accounts
            SET available_micro = available_micro - t.total_micro, pending_micro = pending_micro + t.total_micro,
                daily_consumed_micro = ${consumedToday('accounts', r.dayStart)} + t.total_micro, daily_updated_at = ${r.now}
           FROM (SELECT sum(amount_micro) AS total_micro FROM accepted) t
          WHERE accounts.id = ${r.userId}::uuid AND t.total_micro IS NOT NULL
      RETURNING accounts.id
       )`;
}

/** A fee raise of one reserved transaction: the reservation goes up to `totalMicro` (what the new fees' worst case needs). */
export interface RaiseRequest {
  totalMicro: bigint;
  chainId: number;
  now: Date;
  dayStart: Date;
}

/**
 * The CTE `reservation` of a fee raise: for the `raise_request` row (user_id, delta_micro), ONE
 * conditional UPDATE that moves `delta_micro` more from available to pending under the same
 * conditions as a submission's reservation, the per-tx limit applying to the whole new
 * reservation (`totalMicro`) and the daily limit to what is added. One row (id, delta_micro)
 * when allowed, none when refused.
 */
export function raiseReservationCte(r: RaiseRequest): Sql {
  const delta = sql`q.delta_micro`;
  return sql`reservation AS (
         UPDATE accounts a
            SET available_micro = a.available_micro - ${delta}, pending_micro = a.pending_micro + ${delta},
                daily_consumed_micro = ${consumedToday('a', r.dayStart)} + ${delta}, daily_updated_at = ${r.now}
           FROM raise_request q
          WHERE a.id = q.user_id AND q.delta_micro > 0 AND ${withinLimits('a', delta, sql`${r.totalMicro}::bigint`, r.chainId, r.dayStart)}
      RETURNING a.id, q.delta_micro
       )`;
}

/** The day's consumption of the account row `alias` as of the window starting `dayStart`. */
function consumedToday(alias: string, dayStart: Date): Sql {
  const a = rawSql(alias);
  return sql`(CASE WHEN ${a}.daily_updated_at < ${dayStart} THEN 0 ELSE ${a}.daily_consumed_micro END)`;
}

/**
 * What every reservation must pass: `added` more from available (the balance and the day's
 * limit) for a transaction whose whole reservation becomes `total` (the per-tx limit), on a
 * chain the account allows, with its breaker closed.
 */
function withinLimits(alias: string, added: Sql, total: Sql, chainId: number, dayStart: Date): Sql {
  const a = rawSql(alias);
  return sql`${a}.available_micro >= ${added} AND ${a}.per_tx_limit_micro >= ${total}
            AND ${consumedToday(alias, dayStart)} + ${added} <= ${a}.daily_limit_micro
            AND NOT (${chainId}::int = ANY (${a}.disabled_chain_ids))
            AND NOT (${a}.circuit_breaker_enabled AND ${a}.failure_streak >= ${a}.failure_streak_limit)`;
}

/**
 * The final UPDATE of a covered settlement: the account of each `source` row (user_id,
 * reserved_micro) gets back what was reserved and not charged, with its counters.
 */
export function settleCoveredUpdate(actualMicro: bigint, counters: AccountCounters): Sql {
  const actual = sql`${actualMicro}::bigint`;
  return sql`UPDATE accounts a
            SET available_micro = a.available_micro + source.reserved_micro - ${actual},
                pending_micro = a.pending_micro - source.reserved_micro,
                ${countersSet(counters)}
           FROM source
          WHERE a.id = source.user_id
      RETURNING a.id AS user_id, ${lowBalanceDue('a')} AS low_balance_due`;
}

/**
 * The final UPDATE of a batch of covered settlements: per account of the `source` rows (user_id,
 * reserved_micro, actual_micro, success, daily, ord: the order the settlements happened in), what
 * was reserved and not charged goes back, and the counters move as the settlements one after
 * another would have moved them: the streak is the failures after the last success (on top of
 * the account's own when none succeeded; a null success leaves it), the day's amount is lowered
 * by what the estimates of today's submissions exceeded their charges (each charge is within its
 * estimate, so clamping at 0 once equals clamping after each). The accounts are locked in id
 * order first: two batches (or a batch and a submission) never wait for each other crosswise.
 * `daily`: the day window and clock of the rows whose `daily` is true (one for the batch).
 */
export function settleCoveredManyCtes(daily: { dayStart: Date; now: Date } | null): Sql {
  const dayStart = daily?.dayStart ?? null;
  return sql`account_rows AS (
         SELECT s.*, max(s.ord) FILTER (WHERE s.success) OVER (PARTITION BY s.user_id) AS last_success FROM source s
       ),
       account_source AS (
         SELECT user_id, sum(reserved_micro) AS reserved_micro, sum(reserved_micro - actual_micro) AS released_micro,
                bool_or(COALESCE(success, false)) AS any_success,
                count(*) FILTER (WHERE success = false AND ord > COALESCE(last_success, -1)) AS failures_after,
                bool_or(daily) AS any_daily, COALESCE(sum(reserved_micro - actual_micro) FILTER (WHERE daily), 0) AS daily_release_micro
           FROM account_rows GROUP BY user_id
       ),
       account_lock AS (
         SELECT id FROM accounts WHERE id IN (SELECT user_id FROM account_source) ORDER BY id FOR UPDATE
       ),
       account AS (
         UPDATE accounts a
            SET available_micro = a.available_micro + s.released_micro,
                pending_micro = a.pending_micro - s.reserved_micro,
                failure_streak = CASE WHEN s.any_success THEN s.failures_after ELSE a.failure_streak + s.failures_after END,
                daily_consumed_micro = CASE WHEN s.any_daily
                  THEN GREATEST((CASE WHEN a.daily_updated_at < ${dayStart}::timestamptz THEN 0 ELSE a.daily_consumed_micro END) - s.daily_release_micro, 0)
                  ELSE a.daily_consumed_micro END,
                daily_updated_at = CASE WHEN s.any_daily THEN ${daily?.now ?? null}::timestamptz ELSE a.daily_updated_at END
           FROM account_source s
          WHERE a.id = s.user_id AND a.id IN (SELECT id FROM account_lock)
      RETURNING a.id AS user_id, ${lowBalanceDue('a')} AS low_balance_due
       )`;
}

/**
 * Whether the account row `alias` (as it is now) has an account.low_balance transition to make:
 * under its threshold and not alerted yet, or back over it while alerted. The monitor's
 * conditional UPDATE makes the transition; a statement that changed the balance can RETURN this
 * so that its caller asks the monitor only when there is something to do.
 */
export function lowBalanceDue(alias: string): Sql {
  const a = rawSql(alias);
  return sql`(${a}.low_balance_threshold_micro IS NOT NULL
              AND ((${a}.available_micro < ${a}.low_balance_threshold_micro AND NOT ${a}.low_balance_alerted)
                OR (${a}.available_micro > ${a}.low_balance_threshold_micro AND ${a}.low_balance_alerted)))`;
}

/** The retry budget of the account that owns a row, for a condition on that row (`userIdColumn`). */
export function maxRetriesOf(userIdColumn: Sql): Sql {
  return sql`(SELECT max_retries FROM accounts WHERE id = ${userIdColumn})`;
}
