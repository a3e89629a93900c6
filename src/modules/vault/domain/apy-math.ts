export const SECONDS_PER_YEAR = 31_536_000;
const PRECISION = 10n ** 18n;

/**
 * Compounded annual growth of a share price observed over `seconds`. The relative change is taken
 * in integer maths first: over a few seconds it is around 1e-9, below what a ratio of two doubles
 * near 1 can resolve.
 */
export function annualizedGrowth(priceBefore: bigint, priceAfter: bigint, seconds: number): number {
  if (priceBefore <= 0n || seconds <= 0) throw new Error('annualizedGrowth needs a positive price and span');
  const growth = Number(((priceAfter - priceBefore) * PRECISION) / priceBefore) / 1e18;
  return Math.expm1(Math.log1p(growth) * (SECONDS_PER_YEAR / seconds));
}

/** A venue whose yield is a fixed stream earns it over more assets after a deposit: the APY scales by TVL / (TVL + deposit). */
export function dilutedApy(grossApy: number, totalAssets: bigint, deposit: bigint): number {
  if (deposit <= 0n) return grossApy;
  const tvl = totalAssets + deposit;
  if (tvl === 0n) return grossApy;
  return grossApy * (Number((totalAssets * PRECISION) / tvl) / 1e18);
}
