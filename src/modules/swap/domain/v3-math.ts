import type { V3PoolState, V3Tick } from './types';
import { lastTickAtOrBelow } from './v3-ticks';

/**
 * Uniswap V3 swap math in exact integers: TickMath, SqrtPriceMath, SwapMath and the pool's swap
 * loop (v3-core 1.0), exact input only. Results equal the pool contract's to the wei, including
 * the rounding of every step: steps stop at initialized ticks and at the ends of 256-tick bitmap
 * words as the contract's do. Checked against @uniswap/v3-sdk in v3-math.spec.ts.
 */

export const Q96 = 1n << 96n;
const MAX_UINT256 = (1n << 256n) - 1n;
const MAX_UINT160 = (1n << 160n) - 1n;
export const MIN_TICK = -887272;
export const MAX_TICK = 887272;
export const MIN_SQRT_RATIO = 4295128739n;
export const MAX_SQRT_RATIO = 1461446703485210103287273052203988822378723970342n;
const FEE_UNITS = 1_000_000n;

const mulDiv = (a: bigint, b: bigint, d: bigint): bigint => (a * b) / d;
const mulDivUp = (a: bigint, b: bigint, d: bigint): bigint => {
  const p = a * b;
  return p % d === 0n ? p / d : p / d + 1n;
};
const divUp = (a: bigint, b: bigint): bigint => (a % b === 0n ? a / b : a / b + 1n);

const TICK_FACTORS: ReadonlyArray<[number, bigint]> = [
  [0x2, 0xfff97272373d413259a46990580e213an],
  [0x4, 0xfff2e50f5f656932ef12357cf3c7fdccn],
  [0x8, 0xffe5caca7e10e4e61c3624eaa0941cd0n],
  [0x10, 0xffcb9843d60f6159c9db58835c926644n],
  [0x20, 0xff973b41fa98c081472e6896dfb254c0n],
  [0x40, 0xff2ea16466c96a3843ec78b326b52861n],
  [0x80, 0xfe5dee046a99a2a811c461f1969c3053n],
  [0x100, 0xfcbe86c7900a88aedcffc83b479aa3a4n],
  [0x200, 0xf987a7253ac413176f2b074cf7815e54n],
  [0x400, 0xf3392b0822b70005940c7a398e4b70f3n],
  [0x800, 0xe7159475a2c29b7443b29c7fa6e889d9n],
  [0x1000, 0xd097f3bdfd2022b8845ad8f792aa5825n],
  [0x2000, 0xa9f746462d870fdf8a65dc1f90e061e5n],
  [0x4000, 0x70d869a156d2a1b890bb3df62baf32f7n],
  [0x8000, 0x31be135f97d08fd981231505542fcfa6n],
  [0x10000, 0x9aa508b5b7a84e1c677de54f3e99bc9n],
  [0x20000, 0x5d6af8dedb81196699c329225ee604n],
  [0x40000, 0x2216e584f5fa1ea926041bedfe98n],
  [0x80000, 0x48a170391f7dc42444e8fa2n],
];

/** TickMath.getSqrtRatioAtTick. */
export function sqrtRatioAtTick(tick: number): bigint {
  const abs = Math.abs(tick);
  if (!Number.isInteger(tick) || abs > MAX_TICK) throw new Error(`tick ${tick} out of range`);
  let ratio = (abs & 0x1) !== 0 ? 0xfffcb933bd6fad37aa2d162d1a594001n : 0x100000000000000000000000000000000n;
  for (const [bit, factor] of TICK_FACTORS) if ((abs & bit) !== 0) ratio = (ratio * factor) >> 128n;
  if (tick > 0) ratio = MAX_UINT256 / ratio;
  return (ratio >> 32n) + (ratio % (1n << 32n) === 0n ? 0n : 1n);
}

/** TickMath.getTickAtSqrtRatio: the greatest tick whose sqrt ratio is at most sqrtPriceX96. */
export function tickAtSqrtRatio(sqrtPriceX96: bigint): number {
  if (sqrtPriceX96 < MIN_SQRT_RATIO || sqrtPriceX96 >= MAX_SQRT_RATIO) throw new Error('sqrt price out of range');
  // A float estimate, then the exact definition decides (the estimate is off by at most one or two).
  const price = Number(sqrtPriceX96) / 2 ** 96;
  let tick = Math.floor((2 * Math.log(price)) / Math.log(1.0001));
  tick = Math.max(MIN_TICK, Math.min(MAX_TICK - 1, tick));
  while (tick > MIN_TICK && sqrtRatioAtTick(tick) > sqrtPriceX96) tick--;
  while (tick < MAX_TICK && sqrtRatioAtTick(tick + 1) <= sqrtPriceX96) tick++;
  return tick;
}

/** SqrtPriceMath.getAmount0Delta. */
export function amount0Delta(a: bigint, b: bigint, liquidity: bigint, roundUp: boolean): bigint {
  const [lo, hi] = a < b ? [a, b] : [b, a];
  const numerator1 = liquidity << 96n;
  const numerator2 = hi - lo;
  return roundUp ? divUp(mulDivUp(numerator1, numerator2, hi), lo) : mulDiv(numerator1, numerator2, hi) / lo;
}

/** SqrtPriceMath.getAmount1Delta. */
export function amount1Delta(a: bigint, b: bigint, liquidity: bigint, roundUp: boolean): bigint {
  const [lo, hi] = a < b ? [a, b] : [b, a];
  return roundUp ? mulDivUp(liquidity, hi - lo, Q96) : mulDiv(liquidity, hi - lo, Q96);
}

/** SqrtPriceMath.getNextSqrtPriceFromInput. */
function nextSqrtPriceFromInput(sqrtP: bigint, liquidity: bigint, amountIn: bigint, zeroForOne: boolean): bigint {
  if (amountIn === 0n) return sqrtP;
  if (zeroForOne) {
    // getNextSqrtPriceFromAmount0RoundingUp(add = true), with the contract's overflow fallback.
    const numerator1 = liquidity << 96n;
    const product = amountIn * sqrtP;
    if (product <= MAX_UINT256 && numerator1 + product <= MAX_UINT256) return mulDivUp(numerator1, sqrtP, numerator1 + product);
    return divUp(numerator1, numerator1 / sqrtP + amountIn);
  }
  // getNextSqrtPriceFromAmount1RoundingDown(add = true): both branches are floor((amount << 96) / L).
  const next = sqrtP + (amountIn << 96n) / liquidity;
  if (next > MAX_UINT160) throw new Error('sqrt price overflow');
  return next;
}

interface Step {
  sqrtNext: bigint;
  amountIn: bigint;
  amountOut: bigint;
  feeAmount: bigint;
}

/** SwapMath.computeSwapStep for exact input. */
function swapStep(sqrtCurrent: bigint, sqrtTarget: bigint, liquidity: bigint, amountRemaining: bigint, fee: bigint): Step {
  const zeroForOne = sqrtCurrent >= sqrtTarget;
  const remainingLessFee = mulDiv(amountRemaining, FEE_UNITS - fee, FEE_UNITS);
  let amountIn = zeroForOne ? amount0Delta(sqrtTarget, sqrtCurrent, liquidity, true) : amount1Delta(sqrtCurrent, sqrtTarget, liquidity, true);
  let sqrtNext: bigint;
  if (remainingLessFee >= amountIn) sqrtNext = sqrtTarget;
  else sqrtNext = nextSqrtPriceFromInput(sqrtCurrent, liquidity, remainingLessFee, zeroForOne);
  const max = sqrtTarget === sqrtNext;
  let amountOut: bigint;
  if (zeroForOne) {
    if (!max) amountIn = amount0Delta(sqrtNext, sqrtCurrent, liquidity, true);
    amountOut = amount1Delta(sqrtNext, sqrtCurrent, liquidity, false);
  } else {
    if (!max) amountIn = amount1Delta(sqrtCurrent, sqrtNext, liquidity, true);
    amountOut = amount0Delta(sqrtCurrent, sqrtNext, liquidity, false);
  }
  const feeAmount = !max ? amountRemaining - amountIn : mulDivUp(amountIn, fee, FEE_UNITS - fee);
  return { sqrtNext, amountIn, amountOut, feeAmount };
}

const floorDiv = (a: number, b: number): number => Math.floor(a / b);

/**
 * TickBitmap.nextInitializedTickWithinOneWord over the sorted tick list: the next initialized
 * tick in the swap's direction within the current 256-spacing word, or the word's edge.
 */
export function nextTickWithinWord(ticks: V3Tick[], tick: number, tickSpacing: number, lte: boolean): { next: number; initialized: boolean; at: number } {
  const compressed = floorDiv(tick, tickSpacing);
  if (lte) {
    const bitPos = ((compressed % 256) + 256) % 256;
    const wordStart = (compressed - bitPos) * tickSpacing;
    const i = lastTickAtOrBelow(ticks, compressed * tickSpacing);
    if (i >= 0 && ticks[i].index >= wordStart) return { next: ticks[i].index, initialized: true, at: i };
    return { next: wordStart, initialized: false, at: -1 };
  }
  const c = compressed + 1;
  const bitPos = ((c % 256) + 256) % 256;
  const wordEnd = (c + 255 - bitPos) * tickSpacing;
  const i = lastTickAtOrBelow(ticks, c * tickSpacing - 1) + 1;
  if (i < ticks.length && ticks[i].index <= wordEnd) return { next: ticks[i].index, initialized: true, at: i };
  return { next: wordEnd, initialized: false, at: -1 };
}

export interface V3SwapResult {
  amountOut: bigint;
  sqrtPriceX96: bigint;
  tick: number;
  liquidity: bigint;
}

/**
 * UniswapV3Pool.swap for an exact input with no price limit (the executor passes the extreme
 * limits). Null when the pool cannot take the whole input (it would fill partially, which the
 * executor refuses).
 */
export function v3SwapExactIn(pool: V3PoolState, zeroForOne: boolean, amountIn: bigint): V3SwapResult | null {
  if (amountIn <= 0n) return null;
  const fee = BigInt(pool.fee);
  const limit = zeroForOne ? MIN_SQRT_RATIO + 1n : MAX_SQRT_RATIO - 1n;
  const ticks = pool.ticks;
  let remaining = amountIn;
  let out = 0n;
  let sqrtP = pool.sqrtPriceX96;
  let tick = pool.tick;
  let liquidity = pool.liquidity;
  while (remaining !== 0n && sqrtP !== limit) {
    let step = nextTickWithinWord(ticks, tick, pool.tickSpacing, zeroForOne);
    if (liquidity === 0n) {
      // Nothing to trade until the next initialized tick: jump there directly (the contract
      // walks word by word, but with no liquidity every such step moves zero amounts).
      const j = zeroForOne ? lastTickAtOrBelow(ticks, tick) : lastTickAtOrBelow(ticks, tick) + 1;
      if (j < 0 || j >= ticks.length) return null;
      step = { next: ticks[j].index, initialized: true, at: j };
    }
    const tickNext = Math.max(MIN_TICK, Math.min(MAX_TICK, step.next));
    const sqrtNextTick = sqrtRatioAtTick(tickNext);
    const target = zeroForOne ? (sqrtNextTick < limit ? limit : sqrtNextTick) : sqrtNextTick > limit ? limit : sqrtNextTick;
    const start = sqrtP;
    const s = swapStep(sqrtP, target, liquidity, remaining, fee);
    sqrtP = s.sqrtNext;
    remaining -= s.amountIn + s.feeAmount;
    out += s.amountOut;
    if (sqrtP === sqrtNextTick) {
      if (step.initialized) {
        const net = ticks[step.at].liquidityNet;
        liquidity = zeroForOne ? liquidity - net : liquidity + net;
        if (liquidity < 0n) throw new Error('negative liquidity');
      }
      tick = zeroForOne ? tickNext - 1 : tickNext;
    } else if (sqrtP !== start) {
      tick = tickAtSqrtRatio(sqrtP);
    }
  }
  if (remaining !== 0n) return null;
  return { amountOut: out, sqrtPriceX96: sqrtP, tick, liquidity };
}

/** Virtual reserves of the active liquidity at a price: L/√P of token0 and L·√P of token1. */
export function virtualReserves(sqrtPriceX96: bigint, liquidity: bigint): [bigint, bigint] {
  if (sqrtPriceX96 === 0n) return [0n, 0n];
  return [(liquidity << 96n) / sqrtPriceX96, (liquidity * sqrtPriceX96) >> 96n];
}
