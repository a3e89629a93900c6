import { findPaths } from './path-search';
import { buildPoolGraph } from './pool-graph';
import { pathOut, simulateLegs } from './pool-sim';
import { integerShares } from './split-search';
import type { DexProvider, Path, PoolState } from './types';
import { getAmountOut } from './v2-math';
import { sqrtRatioAtTick, virtualReserves } from './v3-math';
import { searchPlans } from '../routing/route-finder.service';

const dex = (key: string): DexProvider => ({ key, name: key, type: 'uniswap-v2', factory: '0x' + 'f'.repeat(40), feeBps: 30 });
const A = '0x' + '1'.repeat(40);
const B = '0x' + '2'.repeat(40);
const C = '0x' + '3'.repeat(40);
const D = '0x' + '4'.repeat(40);
let n = 0;
const pool = (x: string, y: string, rx: bigint, ry: bigint, provider = dex('u')): PoolState => {
  const [token0, token1, reserve0, reserve1] = x < y ? [x, y, rx, ry] : [y, x, ry, rx];
  return { kind: 'v2', address: `0x${(++n).toString(16).padStart(40, '0')}`, provider, token0, token1, reserve0, reserve1 };
};
const E18 = 10n ** 18n;
const v3dex: DexProvider = { key: 'uniswap-v3', name: 'Uniswap V3', type: 'uniswap-v3', factory: '0x' + 'e'.repeat(40), feeBps: 0 };
/** A V3 pool at price 1 (tick 0): a full-range position of `wide` and a ±`range`-tick one of `narrow`. */
const v3pool = (x: string, y: string, wide: bigint, narrow: bigint, range: number, fee = 500, spacing = 10): PoolState => {
  const [token0, token1] = x < y ? [x, y] : [y, x];
  const edge = Math.floor(887272 / spacing) * spacing;
  const ticks = [
    { index: -edge, liquidityNet: wide, liquidityGross: wide },
    { index: -range, liquidityNet: narrow, liquidityGross: narrow },
    { index: range, liquidityNet: -narrow, liquidityGross: narrow },
    { index: edge, liquidityNet: -wide, liquidityGross: wide },
  ];
  const sqrtPriceX96 = sqrtRatioAtTick(0);
  const [reserve0, reserve1] = virtualReserves(sqrtPriceX96, wide + narrow);
  return { kind: 'v3', address: `0x${(++n).toString(16).padStart(40, '0')}`, provider: v3dex, token0, token1, reserve0, reserve1, fee, tickSpacing: spacing, sqrtPriceX96, tick: 0, liquidity: wide + narrow, ticks };
};

/** Best total over every split of amountIn into `paths.length` legs on a grid of 1/steps (legs in the given order), exact integer math. */
function gridOptimum(paths: Path[], amountIn: bigint, steps: number): bigint {
  let best = 0n;
  const walk = (i: number, left: number, parts: number[]): void => {
    if (i === paths.length - 1) {
      const all = [...parts, left];
      const sim = simulateLegs(all.map((k, j) => ({ path: paths[j], amountIn: (amountIn * BigInt(k)) / BigInt(steps) })).filter((p) => p.amountIn > 0n));
      if (sim && sim.amountOut > best) best = sim.amountOut;
      return;
    }
    for (let k = 0; k <= left; k++) walk(i + 1, left - k, [...parts, k]);
  };
  walk(0, steps, []);
  return best;
}

const bestPlan = (plans: ReturnType<typeof searchPlans>) => plans.reduce((a, b) => (b.amountOut > a.amountOut ? b : a));

describe('V2 math', () => {
  it('is the pair contract formula (997/1000 for 30 bps)', () => {
    const amountIn = 123_456_789n;
    const expected = (amountIn * 997n * 5_000_000n) / (1_000_000n * 1000n + amountIn * 997n);
    expect(getAmountOut(amountIn, 1_000_000n, 5_000_000n, 30)).toBe(expected);
    expect(getAmountOut(0n, 1n, 1n, 30)).toBe(0n);
  });
});

describe('path search', () => {
  it('finds direct, 2-hop and 3-hop simple paths and no longer ones', () => {
    const graph = buildPoolGraph([pool(A, B, E18, E18), pool(B, C, E18, E18), pool(C, D, E18, E18), pool(A, D, E18, E18, dex('s'))]);
    const paths = findPaths(graph, A, D).map((p) => p.hops.length).sort();
    expect(paths).toEqual([1, 3]);
    expect(findPaths(graph, A, C).map((p) => p.hops.map((h) => h.tokenOut))).toEqual(expect.arrayContaining([[B, C], [D, C]]));
    expect(findPaths(graph, A, D, { maxHops: 2, fanOut: 12 }).map((p) => p.hops.length)).toEqual([1]);
  });
});

describe('leg simulation', () => {
  it('runs legs in order on shared pools: a later leg meets the reserves the earlier one left', () => {
    const ab = pool(A, B, 10n * E18, 10n * E18);
    const bc1 = pool(B, C, 10n * E18, 10n * E18);
    const bc2 = pool(B, C, 10n * E18, 10n * E18, dex('s'));
    const graph = buildPoolGraph([ab, bc1, bc2]);
    const [p1, p2] = findPaths(graph, A, C);
    const sim = simulateLegs([
      { path: p1, amountIn: 2n * E18 },
      { path: p2, amountIn: 3n * E18 },
    ])!;
    const firstAB = getAmountOut(2n * E18, 10n * E18, 10n * E18, 30);
    expect(sim.legs[0].hopAmounts).toEqual([2n * E18, firstAB, pathOut(p1, 2n * E18)]);
    const secondAB = getAmountOut(3n * E18, 12n * E18, 10n * E18 - firstAB, 30);
    expect(sim.legs[1].hopAmounts[1]).toBe(secondAB);
    expect(sim.legs[1].amountOut).toBe(getAmountOut(secondAB, 10n * E18, 10n * E18, 30));
    expect(sim.amountOut).toBe(sim.legs[0].amountOut + sim.legs[1].amountOut);
  });

  it('integer shares add up to the input exactly', () => {
    const shares = integerShares(1_000_000_000_000_000_007n, [0.3333, 0.3333, 0.3334]);
    expect(shares.reduce((a, b) => a + b, 0n)).toBe(1_000_000_000_000_000_007n);
    expect(integerShares(10n, [1])).toEqual([10n]);
  });
});

describe('split search', () => {
  it('splits across two equal pools for a large trade: about half each, beating the single best', () => {
    const graph = buildPoolGraph([pool(A, B, 100n * E18, 100n * E18), pool(A, B, 100n * E18, 100n * E18, dex('s'))]);
    const amount = 50n * E18;
    const plans = searchPlans({ graph }, A, B, amount);
    const split = plans.find((p) => p.legs.length > 1)!;
    expect(split.legs).toHaveLength(2);
    expect(split.legs[0].amountIn + split.legs[1].amountIn).toBe(amount);
    expect(split.amountOut).toBeGreaterThan(pathOut(findPaths(graph, A, B)[0], amount));
    // The two pools are identical, so the optimum is an even split (within a millionth).
    const diff = split.legs[0].amountIn - split.legs[1].amountIn;
    expect(diff < 0n ? -diff : diff).toBeLessThan(amount / 1_000_000n + 1n);
  });

  it('splits legs that share a pool (one A/B pool, two B/C pools) and reaches the grid optimum', () => {
    const graph = buildPoolGraph([pool(A, B, 100n * E18, 100n * E18), pool(B, C, 10n * E18, 10n * E18), pool(B, C, 20n * E18, 20n * E18, dex('s'))]);
    const amount = 8n * E18;
    const best = bestPlan(searchPlans({ graph }, A, C, amount));
    expect(best.legs).toHaveLength(2);
    expect(best.legs[0].path.hops[0].pool.address).toBe(best.legs[1].path.hops[0].pool.address);
    const paths = best.legs.map((l) => l.path);
    const grid = gridOptimum(paths, amount, 1000);
    // At least the 0.1%-grid optimum (less a hundred-thousandth for float search tolerance).
    expect(best.amountOut * 100_000n).toBeGreaterThanOrEqual(grid * 99_999n);
  });

  it('uses three paths and a merge when they pay: within 1e-5 of an exhaustive 1% grid over them', () => {
    // A->D: direct (shallow), A->B->D and A->C->D, plus B->C so paths cross and share pools.
    const pools = [pool(A, D, 5n * E18, 5n * E18), pool(A, B, 50n * E18, 50n * E18), pool(B, D, 20n * E18, 20n * E18), pool(A, C, 30n * E18, 30n * E18), pool(C, D, 40n * E18, 40n * E18), pool(B, C, 60n * E18, 60n * E18)];
    const graph = buildPoolGraph(pools);
    const amount = 20n * E18;
    const best = bestPlan(searchPlans({ graph }, A, D, amount));
    expect(best.legs.length).toBeGreaterThanOrEqual(3);
    const used = best.legs.map((l) => l.path);
    const grid = gridOptimum(used, amount, 100);
    expect(best.amountOut * 100_000n).toBeGreaterThanOrEqual(grid * 99_999n);
    expect(best.legs.reduce((s, l) => s + l.amountIn, 0n)).toBe(amount);
    expect(simulateLegs(best.legs)!.amountOut).toBe(best.amountOut);
  });

  it('splits across V2 and V3 pools (concentrated liquidity, ticks crossed) and reaches the grid optimum', () => {
    const graph = buildPoolGraph([pool(A, B, 100n * E18, 100n * E18), v3pool(A, B, 20n * E18, 2000n * E18, 200), pool(A, C, 50n * E18, 50n * E18), pool(C, B, 50n * E18, 50n * E18)]);
    for (const amount of [10n * E18, 30n * E18, 100n * E18]) {
      const best = bestPlan(searchPlans({ graph }, A, B, amount));
      expect(best.legs.length).toBeGreaterThanOrEqual(2);
      expect(best.legs.some((l) => l.path.hops.some((h) => h.pool.kind === 'v3'))).toBe(true);
      const grid = gridOptimum(findPaths(graph, A, B), amount, 60);
      expect(best.amountOut * 100_000n).toBeGreaterThanOrEqual(grid * 99_999n);
    }
  });

  it('a V3 pool that cannot take its float share (no liquidity past its range) is used up to what it holds, never overfilled', () => {
    // Only a ±200-tick position: about 1e18 of token A fills it; the V2 pool takes the rest.
    const narrow = v3pool(A, B, 0n, 100n * E18, 200);
    if (narrow.kind !== 'v3') throw new Error('v3 expected');
    const onlyNarrow = { ...narrow, ticks: narrow.ticks.filter((t) => t.liquidityGross > 0n) };
    const graph = buildPoolGraph([pool(A, B, 20n * E18, 20n * E18), onlyNarrow]);
    for (const amount of [E18 / 2n, 2n * E18, 10n * E18]) {
      const plans = searchPlans({ graph }, A, B, amount);
      for (const plan of plans) expect(simulateLegs(plan.legs)!.amountOut).toBe(plan.amountOut);
      const best = bestPlan(plans);
      const grid = gridOptimum(findPaths(graph, A, B), amount, 200);
      expect(best.amountOut * 100_000n).toBeGreaterThanOrEqual(grid * 99_999n);
    }
  });

  it('with gas priced in the output token, also offers the split without legs that do not pay their gas', () => {
    const graph = buildPoolGraph([pool(A, B, 100n * E18, 100n * E18), pool(A, B, 100n * E18, 100n * E18, dex('s')), pool(A, B, 1n * E18, 1n * E18, dex('t'))]);
    const amount = 40n * E18;
    const raw = searchPlans({ graph }, A, B, amount);
    expect(Math.max(...raw.map((p) => p.legs.length))).toBe(3);
    // 1e-6 B per gas unit: a leg costs ~0.12 B; the tiny pool's leg adds ~0.03 B over giving its input to the others.
    const priced = searchPlans({ graph }, A, B, amount, { gasPerUnitOut: 1e12 });
    const lean = priced.filter((p) => p.legs.length === 2);
    expect(lean).toHaveLength(1);
  });
});
