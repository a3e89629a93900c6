import type { PoolState } from './types';

const BPS = 10_000n;

/**
 * UniswapV2Library.getAmountOut generalised to any fee: with feeBps 30 it is exactly the
 * 997/1000 formula (both sides of the fraction are scaled by 10), so results match the pair
 * contract and @uniswap/v2-sdk to the wei.
 */
export function getAmountOut(amountIn: bigint, reserveIn: bigint, reserveOut: bigint, feeBps: number): bigint {
  if (amountIn <= 0n || reserveIn <= 0n || reserveOut <= 0n) return 0n;
  const inWithFee = amountIn * (BPS - BigInt(feeBps));
  return (inWithFee * reserveOut) / (reserveIn * BPS + inWithFee);
}

export function reservesFor(pool: PoolState, tokenIn: string): [reserveIn: bigint, reserveOut: bigint] {
  return tokenIn === pool.token0 ? [pool.reserve0, pool.reserve1] : [pool.reserve1, pool.reserve0];
}
