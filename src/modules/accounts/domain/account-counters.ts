/**
 * What a finished transaction changes on its account besides the balances: the breaker's
 * failure streak and the daily amount, which the submission raised by the estimate and
 * settlement corrects to what was charged (only when the submission counted toward today).
 */
export interface AccountCounters {
  success: boolean;
  daily: { dayStart: Date; now: Date; estimatedMicro: bigint; chargedMicro: bigint } | null;
}

/** The SET list for `counters`, its parameters numbered from `firstParam`. */
export function countersSet(counters: AccountCounters, firstParam: number): { set: string; params: unknown[] } {
  const streak = `failure_streak = ${counters.success ? '0' : 'failure_streak + 1'}`;
  if (!counters.daily) return { set: streak, params: [] };
  const [dayStart, estimated, charged, now] = [firstParam, firstParam + 1, firstParam + 2, firstParam + 3].map((i) => `$${i}`);
  return {
    set: `${streak},
          daily_consumed_micro = GREATEST((CASE WHEN daily_updated_at < ${dayStart} THEN 0 ELSE daily_consumed_micro END) - ${estimated} + ${charged}, 0),
          daily_updated_at = ${now}`,
    params: [counters.daily.dayStart, counters.daily.estimatedMicro.toString(), counters.daily.chargedMicro.toString(), counters.daily.now],
  };
}
