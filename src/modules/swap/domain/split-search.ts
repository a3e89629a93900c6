import { pathOut } from './v2-math';
import type { Leg, Path } from './types';

export interface SplitOptions {
  /** Granularity of a split, in percent of the input (smart-order-router's distributionPercent). */
  stepPercent: number;
  /** Most legs one route may have. */
  maxLegs: number;
}

export const DEFAULT_SPLIT: SplitOptions = { stepPercent: 5, maxLegs: 3 };

/**
 * Spreads the input over paths in percentage steps, each step to the path whose next step adds
 * the most output. V2 output is concave in the input, so for a fixed set of paths this greedy
 * allocation is the optimum at that granularity. Paths that share a pool with a path already in
 * use are not eligible: their outputs would not add up (the executor would move the same
 * reserves twice).
 */
export function splitAcross(paths: Path[], amountIn: bigint, options: SplitOptions = DEFAULT_SPLIT): Leg[] {
  const steps = Math.max(1, Math.round(100 / options.stepPercent));
  const cache = paths.map(() => new Map<number, bigint>());
  const outAt = (i: number, k: number): bigint => {
    let value = cache[i].get(k);
    if (value === undefined) {
      value = k === 0 ? 0n : pathOut(paths[i], (amountIn * BigInt(k)) / BigInt(steps));
      cache[i].set(k, value);
    }
    return value;
  };
  const pools = paths.map((p) => new Set(p.hops.map((h) => h.pool.address)));
  const allocation = new Array<number>(paths.length).fill(0);
  const used: number[] = [];
  const usedPools = new Set<string>();

  for (let step = 0; step < steps; step++) {
    let best = -1;
    let bestGain = -1n;
    for (let i = 0; i < paths.length; i++) {
      if (allocation[i] === 0) {
        if (used.length >= options.maxLegs) continue;
        let clash = false;
        for (const pool of pools[i]) if (usedPools.has(pool)) clash = true;
        if (clash) continue;
      }
      const gain = outAt(i, allocation[i] + 1) - outAt(i, allocation[i]);
      if (gain > bestGain) {
        bestGain = gain;
        best = i;
      }
    }
    if (best < 0) break;
    if (allocation[best] === 0) {
      used.push(best);
      for (const pool of pools[best]) usedPools.add(pool);
    }
    allocation[best]++;
  }

  // Exact amounts: floor of each share, the rounding remainder to the largest leg.
  const legs = used.map((i) => ({ path: paths[i], amountIn: (amountIn * BigInt(allocation[i])) / BigInt(steps), amountOut: 0n }));
  const assigned = legs.reduce((sum, leg) => sum + leg.amountIn, 0n);
  if (legs.length > 0) {
    const largest = legs.reduce((a, b) => (b.amountIn > a.amountIn ? b : a));
    largest.amountIn += amountIn - assigned;
  }
  for (const leg of legs) leg.amountOut = pathOut(leg.path, leg.amountIn);
  return legs.filter((leg) => leg.amountIn > 0n).sort((a, b) => (b.amountIn > a.amountIn ? 1 : -1));
}
