import type { Hop, Path, PoolState } from './types';

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

export function hopOut(hop: Hop, amountIn: bigint): bigint {
  const [reserveIn, reserveOut] = reservesFor(hop.pool, hop.tokenIn);
  return getAmountOut(amountIn, reserveIn, reserveOut, hop.pool.provider.feeBps);
}

/** Output of a whole path, and each hop's output (the executor recomputes the same numbers on chain). */
export function pathOut(path: Path, amountIn: bigint): bigint {
  let amount = amountIn;
  for (const hop of path.hops) {
    amount = hopOut(hop, amount);
    if (amount === 0n) return 0n;
  }
  return amount;
}

export function pathAmounts(path: Path, amountIn: bigint): bigint[] {
  const amounts = [amountIn];
  for (const hop of path.hops) amounts.push(hopOut(hop, amounts[amounts.length - 1]));
  return amounts;
}
