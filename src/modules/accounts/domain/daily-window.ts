import { AccountEntity } from '../store/account.entity';

/** Start of the UTC day containing `now`: the daily amount resets at 00:00 UTC (decisions.md). */
export function utcDayStart(now: Date): Date {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
}

/** The amount consumed today; a value last written before today's midnight counts as zero. */
export function dailyConsumedMicro(account: Pick<AccountEntity, 'dailyConsumedMicro' | 'dailyUpdatedAt'>, now = new Date()): bigint {
  return account.dailyUpdatedAt < utcDayStart(now) ? 0n : account.dailyConsumedMicro;
}
