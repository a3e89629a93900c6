import { annualizedGrowth, dilutedApy, SECONDS_PER_YEAR } from './apy-math';

describe('apy maths', () => {
  it('annualises a tiny growth over seconds without losing it to float rounding', () => {
    // 5 % a year, compounded per second, observed over 3 seconds on a 1e24-scaled price.
    const perSecond = Math.log1p(0.05) / SECONDS_PER_YEAR;
    const before = 10n ** 24n;
    const after = before + BigInt(Math.round(1e24 * Math.expm1(perSecond * 3)));
    expect(annualizedGrowth(before, after, 3)).toBeCloseTo(0.05, 6);
  });

  it('is zero for a flat price and negative for a falling one', () => {
    expect(annualizedGrowth(10n ** 18n, 10n ** 18n, 60)).toBe(0);
    expect(annualizedGrowth(10n ** 18n, 10n ** 18n - 10n ** 12n, 60)).toBeLessThan(0);
  });

  it('dilutes a fixed-stream APY by TVL / (TVL + deposit)', () => {
    expect(dilutedApy(0.08, 100n, 100n)).toBeCloseTo(0.04, 12);
    expect(dilutedApy(0.08, 100n, 0n)).toBe(0.08);
  });
});
