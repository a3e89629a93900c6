import { dailyConsumedMicro, utcDayStart } from './daily-window';

describe('daily window', () => {
  it('starts at 00:00 UTC', () => {
    expect(utcDayStart(new Date('2026-11-21T23:59:59.999Z')).toISOString()).toBe('2026-11-21T00:00:00.000Z');
  });

  it('counts the consumed amount only within the same UTC day', () => {
    const account = { dailyConsumedMicro: 7n, dailyUpdatedAt: new Date('2026-11-21T10:00:00Z') };
    expect(dailyConsumedMicro(account, new Date('2026-11-21T23:00:00Z'))).toBe(7n);
    expect(dailyConsumedMicro(account, new Date('2026-11-22T00:00:00Z'))).toBe(0n);
  });
});
