import type { DexProvider, V3PoolState, V3Tick } from './types';
import { virtualReserves } from './v3-math';

/** A V3 pool state from what the chain says (virtual reserves derived). */
export function v3Pool(
  base: { address: string; provider: DexProvider; token0: string; token1: string; fee: number },
  state: { sqrtPriceX96: bigint; tick: number; liquidity: bigint; tickSpacing: number; ticks: V3Tick[] },
): V3PoolState {
  const [reserve0, reserve1] = virtualReserves(state.sqrtPriceX96, state.liquidity);
  return { kind: 'v3', ...base, ...state, reserve0, reserve1 };
}

/** After a Swap (price, tick and active liquidity) or an Initialize (liquidity null: unchanged). */
export function withPrice(pool: V3PoolState, sqrtPriceX96: bigint, tick: number, liquidity: bigint | null): V3PoolState {
  const active = liquidity ?? pool.liquidity;
  const [reserve0, reserve1] = virtualReserves(sqrtPriceX96, active);
  return { ...pool, sqrtPriceX96, tick, liquidity: active, reserve0, reserve1 };
}

/**
 * After a Mint (delta > 0) or Burn (delta < 0) of a position: both ticks' gross and net
 * liquidity move as in Tick.update (a tick whose gross reaches zero is no longer initialized),
 * and the active liquidity moves when the position spans the current tick.
 */
export function withPosition(pool: V3PoolState, tickLower: number, tickUpper: number, delta: bigint): V3PoolState {
  if (delta === 0n) return pool;
  const byIndex = new Map(pool.ticks.map((t) => [t.index, { ...t }]));
  const touch = (index: number, netDelta: bigint): void => {
    const t = byIndex.get(index) ?? { index, liquidityNet: 0n, liquidityGross: 0n };
    t.liquidityGross += delta;
    t.liquidityNet += netDelta;
    if (t.liquidityGross <= 0n) byIndex.delete(index);
    else byIndex.set(index, t);
  };
  touch(tickLower, delta);
  touch(tickUpper, -delta);
  const ticks = [...byIndex.values()].sort((a, b) => a.index - b.index);
  const inRange = tickLower <= pool.tick && pool.tick < tickUpper;
  return withPrice({ ...pool, ticks }, pool.sqrtPriceX96, pool.tick, inRange ? pool.liquidity + delta : pool.liquidity);
}
