import { TickListDataProvider, TickMath, v3Swap } from '@uniswap/v3-sdk';
import JSBI from 'jsbi';
import { floatStatic, floatSwap, freshState } from './float-sim';
import { swapOnPool } from './pool-sim';
import type { DexProvider, V3PoolState, V3Tick } from './types';
import { MAX_TICK, MIN_TICK, sqrtRatioAtTick, tickAtSqrtRatio, v3SwapExactIn, virtualReserves } from './v3-math';

/** mulberry32. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const V3: DexProvider = { key: 'uniswap-v3', name: 'Uniswap V3', type: 'uniswap-v3', factory: '0x' + 'f'.repeat(40), feeBps: 0 };
const TIERS: ReadonlyArray<[fee: number, spacing: number]> = [
  [100, 1],
  [500, 10],
  [3000, 60],
  [10000, 200],
];

/** A random pool: positions of random widths (some full range), a random price inside the span. */
function randomPool(rand: () => number): V3PoolState {
  const [fee, spacing] = TIERS[Math.floor(rand() * TIERS.length)];
  const center = Math.round((rand() - 0.5) * 200_000);
  const net = new Map<number, bigint>();
  const gross = new Map<number, bigint>();
  const align = (t: number) => Math.max(Math.ceil(MIN_TICK / spacing), Math.min(Math.floor(MAX_TICK / spacing), Math.round(t / spacing))) * spacing;
  const positions = 1 + Math.floor(rand() * 6);
  for (let i = 0; i < positions; i++) {
    const full = rand() < 0.2;
    const width = 1 + Math.floor(rand() * 300);
    const lo = full ? align(MIN_TICK) : align(center - Math.floor(rand() * width) * spacing);
    let hi = full ? align(MAX_TICK) : align(center + Math.floor(rand() * width) * spacing);
    if (hi <= lo) hi = lo + spacing;
    const liquidity = BigInt(Math.floor(1 + rand() * 1e6)) * 10n ** BigInt(10 + Math.floor(rand() * 10));
    net.set(lo, (net.get(lo) ?? 0n) + liquidity);
    net.set(hi, (net.get(hi) ?? 0n) - liquidity);
    gross.set(lo, (gross.get(lo) ?? 0n) + liquidity);
    gross.set(hi, (gross.get(hi) ?? 0n) + liquidity);
  }
  // A tick whose positions' net cancels stays initialized (gross > 0): steps still stop there.
  const ticks: V3Tick[] = [...net.entries()].map(([index, liquidityNet]) => ({ index, liquidityNet, liquidityGross: gross.get(index)! })).sort((a, b) => a.index - b.index);
  // The price somewhere among the positions (they span about ±300 spacings around the center).
  const at = center + Math.round((rand() - 0.5) * 300 * spacing);
  const sqrtPriceX96 = sqrtRatioAtTick(at) + BigInt(Math.floor(rand() * 1e9));
  const tick = tickAtSqrtRatio(sqrtPriceX96);
  const liquidity = ticks.filter((t) => t.index <= tick).reduce((s, t) => s + t.liquidityNet, 0n);
  const [reserve0, reserve1] = virtualReserves(sqrtPriceX96, liquidity);
  return { kind: 'v3', address: '0x' + '9'.repeat(40), provider: V3, token0: '0x' + '1'.repeat(40), token1: '0x' + '2'.repeat(40), reserve0, reserve1, fee, tickSpacing: spacing, sqrtPriceX96, tick, liquidity, ticks };
}

async function sdkSwap(pool: V3PoolState, zeroForOne: boolean, amountIn: bigint) {
  const provider = new TickListDataProvider(
    pool.ticks.map((t) => ({ index: t.index, liquidityNet: t.liquidityNet.toString(), liquidityGross: t.liquidityGross.toString() })),
    pool.tickSpacing,
  );
  const r = await v3Swap(JSBI.BigInt(pool.fee), JSBI.BigInt(pool.sqrtPriceX96.toString()), pool.tick, JSBI.BigInt(pool.liquidity.toString()), pool.tickSpacing, provider, zeroForOne, JSBI.BigInt(amountIn.toString()));
  return { amountOut: -BigInt(r.amountCalculated.toString()), sqrtPriceX96: BigInt(r.sqrtRatioX96.toString()), liquidity: BigInt(r.liquidity.toString()), tick: r.tickCurrent };
}

describe('V3 math against @uniswap/v3-sdk', () => {
  it('TickMath: sqrt ratio at tick and tick at sqrt ratio, including the ends', () => {
    const rand = prng(1);
    const ticks = [MIN_TICK, MIN_TICK + 1, -1, 0, 1, MAX_TICK - 1, MAX_TICK, ...Array.from({ length: 300 }, () => Math.round((rand() * 2 - 1) * MAX_TICK))];
    for (const t of ticks) expect(sqrtRatioAtTick(t).toString()).toBe(TickMath.getSqrtRatioAtTick(t).toString());
    for (let i = 0; i < 300; i++) {
      const t = Math.round((rand() * 2 - 1) * (MAX_TICK - 1));
      const s = sqrtRatioAtTick(t) + BigInt(Math.floor(rand() * 1e6)) * (rand() < 0.5 ? 1n : 0n);
      expect(tickAtSqrtRatio(s)).toBe(TickMath.getTickAtSqrtRatio(JSBI.BigInt(s.toString())));
    }
  });

  it('exact-input swaps with tick crossing match the SDK to the wei: output, price, tick and liquidity after', async () => {
    const rand = prng(42);
    let crossed = 0;
    let compared = 0;
    for (let i = 0; i < 150; i++) {
      const pool = randomPool(rand);
      for (const zeroForOne of [true, false]) {
        const depth = zeroForOne ? pool.reserve0 : pool.reserve1;
        // From dust to several times the active depth (crossing ticks, sometimes running out).
        const amountIn = 1n + (depth * BigInt(Math.floor(rand() ** 3 * 4_000_000))) / 1_000_000n;
        const ours = v3SwapExactIn(pool, zeroForOne, amountIn);
        if (!ours) continue;
        const sdk = await sdkSwap(pool, zeroForOne, amountIn);
        expect({ out: ours.amountOut, p: ours.sqrtPriceX96, t: ours.tick, l: ours.liquidity }).toEqual({ out: sdk.amountOut, p: sdk.sqrtPriceX96, t: sdk.tick, l: sdk.liquidity });
        compared++;
        const [lo, hi] = ours.tick < pool.tick ? [ours.tick, pool.tick] : [pool.tick, ours.tick];
        if (pool.ticks.some((t) => t.index > lo && t.index <= hi)) crossed++;
      }
    }
    expect(compared).toBeGreaterThan(200);
    expect(crossed).toBeGreaterThan(50);
  });

  it('refuses an input the pool cannot fill (runs out of initialized ticks), as the executor does', async () => {
    const ticks = [
      { index: -600, liquidityNet: 10n ** 18n, liquidityGross: 10n ** 18n },
      { index: 600, liquidityNet: -(10n ** 18n), liquidityGross: 10n ** 18n },
    ];
    const sqrtPriceX96 = sqrtRatioAtTick(0);
    const [reserve0, reserve1] = virtualReserves(sqrtPriceX96, 10n ** 18n);
    const pool: V3PoolState = { kind: 'v3', address: '0x' + '9'.repeat(40), provider: V3, token0: '0x' + '1'.repeat(40), token1: '0x' + '2'.repeat(40), reserve0, reserve1, fee: 3000, tickSpacing: 60, sqrtPriceX96, tick: 0, liquidity: 10n ** 18n, ticks };
    // The whole range holds about 0.03e18 of token0 below the price: 1e18 cannot fill.
    expect(v3SwapExactIn(pool, true, 10n ** 18n)).toBeNull();
    expect(swapOnPool(pool, pool.token0, 10n ** 18n)).toBeNull();
    const sdk = await sdkSwap(pool, true, 10n ** 18n);
    expect(sdk.tick).toBeLessThan(-600);
    const small = v3SwapExactIn(pool, true, 10n ** 15n)!;
    expect(small.amountOut).toBe((await sdkSwap(pool, true, 10n ** 15n)).amountOut);
  });

  it('the float model used by the search stays within 1e-6 of the exact output', () => {
    const rand = prng(7);
    for (let i = 0; i < 100; i++) {
      const pool = randomPool(rand);
      const zeroForOne = rand() < 0.5;
      const depth = zeroForOne ? pool.reserve0 : pool.reserve1;
      const amountIn = 1_000_000n + (depth * BigInt(Math.floor(rand() * 2_000_000))) / 1_000_000n;
      const exact = v3SwapExactIn(pool, zeroForOne, amountIn);
      const st = floatStatic(pool);
      const approx = floatSwap(st, freshState(st), zeroForOne, Number(amountIn), false);
      if (!exact) {
        expect(approx).toBe(-Infinity);
        continue;
      }
      if (exact.amountOut < 1_000_000n) continue;
      expect(Math.abs(approx / Number(exact.amountOut) - 1)).toBeLessThan(1e-6);
    }
  });
});
