import type { Hop, Leg, Path, PoolState } from './types';
import { getAmountOut } from './v2-math';
import { v3SwapExactIn, virtualReserves } from './v3-math';

/**
 * Exact (integer) swaps on any pool kind, and a working copy of pool states on which legs run
 * in order: what the executor does on chain, where a later leg meets the reserves or price an
 * earlier leg left in a shared pool.
 */

/** The pool after swapping amountIn of tokenIn, and the output; null when the pool cannot take it. */
export function swapOnPool(pool: PoolState, tokenIn: string, amountIn: bigint): { amountOut: bigint; after: PoolState } | null {
  if (amountIn <= 0n) return null;
  const zeroForOne = tokenIn === pool.token0;
  if (pool.kind === 'v2') {
    const [reserveIn, reserveOut] = zeroForOne ? [pool.reserve0, pool.reserve1] : [pool.reserve1, pool.reserve0];
    const amountOut = getAmountOut(amountIn, reserveIn, reserveOut, pool.provider.feeBps);
    if (amountOut <= 0n) return null;
    const after: PoolState = zeroForOne
      ? { ...pool, reserve0: pool.reserve0 + amountIn, reserve1: pool.reserve1 - amountOut }
      : { ...pool, reserve0: pool.reserve0 - amountOut, reserve1: pool.reserve1 + amountIn };
    return { amountOut, after };
  }
  const result = v3SwapExactIn(pool, zeroForOne, amountIn);
  if (!result || result.amountOut <= 0n) return null;
  const [reserve0, reserve1] = virtualReserves(result.sqrtPriceX96, result.liquidity);
  return { amountOut: result.amountOut, after: { ...pool, sqrtPriceX96: result.sqrtPriceX96, tick: result.tick, liquidity: result.liquidity, reserve0, reserve1 } };
}

/** Initialized ticks a swap crossed between two states of a V3 pool (0 for V2). */
export function ticksBetween(before: PoolState, after: PoolState): number {
  if (before.kind !== 'v3' || after.kind !== 'v3') return 0;
  const [lo, hi] = before.tick < after.tick ? [before.tick, after.tick] : [after.tick, before.tick];
  let n = 0;
  for (const t of before.ticks) if (t.index > lo && t.index <= hi) n++;
  return n;
}

/** Output of one hop on the pool as it is (0 when it cannot be swapped). */
export function hopOut(hop: Hop, amountIn: bigint): bigint {
  return swapOnPool(hop.pool, hop.tokenIn, amountIn)?.amountOut ?? 0n;
}

/** Pool states as moved by the swaps run so far; pools not touched are read from the graph. */
export class PoolBook {
  private readonly moved = new Map<string, PoolState>();

  current(pool: PoolState): PoolState {
    return this.moved.get(pool.address) ?? pool;
  }

  /** Output of a path on the working states, without moving them (0 when a hop fails). */
  peekPath(path: Path, amountIn: bigint): bigint {
    let amount = amountIn;
    for (const hop of path.hops) {
      const swapped = swapOnPool(this.current(hop.pool), hop.tokenIn, amount);
      if (!swapped) return 0n;
      amount = swapped.amountOut;
    }
    return amount;
  }

  /** Runs a path on the working states; the hop inputs and the output, or null when a hop fails (nothing is applied then). */
  runPath(path: Path, amountIn: bigint, crossed?: number[]): bigint[] | null {
    const amounts = [amountIn];
    const applied: PoolState[] = [];
    let amount = amountIn;
    for (const hop of path.hops) {
      const before = this.current(hop.pool);
      const swapped = swapOnPool(before, hop.tokenIn, amount);
      if (!swapped) return null;
      applied.push(swapped.after);
      crossed?.push(ticksBetween(before, swapped.after));
      amount = swapped.amountOut;
      amounts.push(amount);
    }
    for (const after of applied) this.moved.set(after.address, after);
    return amounts;
  }
}

/** Output of a whole path on the pools as they are (0 when a hop cannot be swapped). */
export function pathOut(path: Path, amountIn: bigint): bigint {
  let amount = amountIn;
  for (const hop of path.hops) {
    amount = hopOut(hop, amount);
    if (amount === 0n) return 0n;
  }
  return amount;
}

/**
 * Runs legs in order on one working copy of the pools: each leg's output and hop amounts as the
 * executor will produce them. Null when any leg cannot be swapped.
 */
export function simulateLegs(parts: Array<{ path: Path; amountIn: bigint }>): { legs: Leg[]; amountOut: bigint } | null {
  const book = new PoolBook();
  const legs: Leg[] = [];
  let total = 0n;
  for (const part of parts) {
    const crossed: number[] = [];
    const amounts = book.runPath(part.path, part.amountIn, crossed);
    if (!amounts) return null;
    const out = amounts[amounts.length - 1];
    legs.push({ path: part.path, amountIn: part.amountIn, amountOut: out, hopAmounts: amounts, ticksCrossed: crossed });
    total += out;
  }
  return { legs, amountOut: total };
}

/** Index of the first leg that cannot be swapped when the legs run in order; -1 when all can. */
export function firstFailingLeg(parts: Array<{ path: Path; amountIn: bigint }>): number {
  const book = new PoolBook();
  for (let k = 0; k < parts.length; k++) if (parts[k].amountIn > 0n && !book.runPath(parts[k].path, parts[k].amountIn)) return k;
  return -1;
}
