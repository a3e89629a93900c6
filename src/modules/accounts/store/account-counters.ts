import { Sql, sql } from '../../../database/sql';

/**
 * What a finished transaction changes on its account besides the balances: the breaker's
 * failure streak and the daily amount, which the submission raised by the estimate and
 * settlement corrects to what was charged (only when the submission counted toward today).
 */
export interface AccountCounters {
  /** null: the client (cancel) or its deadline ended the transaction, which says nothing about its calls; the streak stays. */
  success: boolean | null;
  daily: { dayStart: Date; now: Date; estimatedMicro: bigint; chargedMicro: bigint } | null;
}

/** The SET list of an accounts UPDATE for `counters`. */
export function countersSet(counters: AccountCounters): Sql {
  const streak = counters.success === null ? sql`failure_streak = failure_streak` : counters.success ? sql`failure_streak = 0` : sql`failure_streak = failure_streak + 1`;
  if (!counters.daily) return streak;
  const { dayStart, estimatedMicro, chargedMicro, now } = counters.daily;
  return sql`${streak},
          daily_consumed_micro = GREATEST((CASE WHEN daily_updated_at < ${dayStart} THEN 0 ELSE daily_consumed_micro END) - ${estimatedMicro}::bigint + ${chargedMicro}::bigint, 0),
          daily_updated_at = ${now}`;
}
