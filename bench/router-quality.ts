/**
 * Router quality for bench:quote: the router's best raw output against an optimum computed here
 * independently, and against @uniswap/v2-sdk's best trade over the V2 pools.
 *
 * The optimum: every simple path of up to 3 pools (no fan-out limit), the input in
 * QUALITY_CHUNKS equal parts, each part to the path paying most for it on the pool states all
 * earlier parts left, in exact integer math (V2 and V3 alike). That is the optimum of the
 * concave flow problem up to one part's granularity; the value taken is the better of running
 * the parts interleaved and running each path's total as one leg (both are executable).
 */
import { CurrencyAmount, Token } from '@uniswap/sdk-core';
import { Pair, Trade } from '@uniswap/v2-sdk';
import { findPaths } from '../src/modules/swap/domain/path-search';
import { otherToken, reserveOf, type PoolGraph } from '../src/modules/swap/domain/pool-graph';
import { PoolBook, simulateLegs } from '../src/modules/swap/domain/pool-sim';
import type { Path, PoolState } from '../src/modules/swap/domain/types';
import { searchPlans } from '../src/modules/swap/routing/route-finder.service';

/**
 * What a pool really holds of `token`: V2 its reserve; V3 the tokens locked in its positions
 * (above the price in token0, below it in token1), not the virtual reserves of the active
 * liquidity, which for concentrated positions are many times larger than the pool.
 */
export function realReserveOf(pool: PoolState, token: string): bigint {
  if (pool.kind === 'v2') return reserveOf(pool, token);
  const sp = Number(pool.sqrtPriceX96) / 2 ** 96;
  const isToken0 = token === pool.token0;
  let liquidity = 0;
  let amount = 0;
  for (let i = 0; i + 1 < pool.ticks.length; i++) {
    liquidity += Number(pool.ticks[i].liquidityNet);
    const sa = Math.pow(1.0001, pool.ticks[i].index / 2);
    const sb = Math.pow(1.0001, pool.ticks[i + 1].index / 2);
    if (liquidity <= 0) continue;
    if (isToken0 && sb > sp) amount += liquidity * (1 / Math.max(sa, sp) - 1 / sb);
    if (!isToken0 && sa < sp) amount += liquidity * (Math.min(sb, sp) - sa);
  }
  return BigInt(Math.floor(amount));
}

export const QUALITY_SIZES = [0.00001, 0.0001, 0.001, 0.01, 0.05, 0.2, 0.5, 1];

export function exhaustiveOptimum(graph: PoolGraph, tokenIn: string, tokenOut: string, amountIn: bigint, chunks: number): bigint {
  const paths = findPaths(graph, tokenIn, tokenOut, { maxHops: 3, fanOut: Number.MAX_SAFE_INTEGER });
  if (paths.length === 0) return 0n;
  const book = new PoolBook();
  const totals = new Map<Path, bigint>();
  const order: Path[] = [];
  let interleaved = 0n;
  let given = 0n;
  for (let c = 0; c < chunks; c++) {
    const part = c === chunks - 1 ? amountIn - given : amountIn / BigInt(chunks);
    if (part === 0n) continue;
    given += part;
    let best: Path | null = null;
    let bestOut = 0n;
    for (const path of paths) {
      const out = book.peekPath(path, part);
      if (out > bestOut) {
        bestOut = out;
        best = path;
      }
    }
    if (!best) break;
    book.runPath(best, part);
    interleaved += bestOut;
    if (!totals.has(best)) order.push(best);
    totals.set(best, (totals.get(best) ?? 0n) + part);
  }
  const asLegs = simulateLegs(order.map((path) => ({ path, amountIn: totals.get(path)! })));
  return asLegs && asLegs.amountOut > interleaved ? asLegs.amountOut : interleaved;
}

export function v2SdkBest(pools: PoolState[], decimals: Map<string, number>, chainId: number, tokenIn: string, tokenOut: string, amountIn: bigint): bigint {
  const tok = (a: string) => new Token(chainId, a, decimals.get(a) ?? 18);
  const pairs = pools
    .filter((p) => p.kind === 'v2' && p.provider.feeBps === 30)
    .map((p) => new Pair(CurrencyAmount.fromRawAmount(tok(p.token0), p.reserve0.toString()), CurrencyAmount.fromRawAmount(tok(p.token1), p.reserve1.toString())));
  const [trade] = Trade.bestTradeExactIn(pairs, CurrencyAmount.fromRawAmount(tok(tokenIn), amountIn.toString()), tok(tokenOut), { maxHops: 3, maxNumResults: 1 });
  return trade ? BigInt(trade.outputAmount.quotient.toString()) : 0n;
}

/** Hop distances from `from` (at most `max`), never passing through `avoid`. */
function distances(graph: PoolGraph, from: string, avoid: string, max: number): Map<string, number> {
  const dist = new Map<string, number>([[from, 0]]);
  let frontier = [from];
  for (let d = 1; d <= max && frontier.length > 0; d++) {
    const next: string[] = [];
    for (const token of frontier) {
      for (const pool of graph.byToken.get(token) ?? []) {
        const other = otherToken(pool, token);
        if (other === avoid || dist.has(other)) continue;
        dist.set(other, d);
        next.push(other);
      }
    }
    frontier = next;
  }
  return dist;
}

/**
 * The pools that can lie on a simple path of at most 3 pools from tokenIn to tokenOut: a pool
 * between a and b is on one only if tokenIn reaches a without tokenOut and b reaches tokenOut
 * without tokenIn in 2 hops between them (either way round). The v2-sdk's best trade over these is
 * the same as over all pools, but it copies and walks its whole pair list per step: with the
 * 13,000 pools of a 20,000-pool hub that took hours per size.
 */
export function poolsOnPaths(graph: PoolGraph, tokenIn: string, tokenOut: string): PoolState[] {
  const fromIn = distances(graph, tokenIn, tokenOut, 2);
  const toOut = distances(graph, tokenOut, tokenIn, 2);
  const fits = (a: string, b: string) => (fromIn.get(a) ?? 9) + (toOut.get(b) ?? 9) + 1 <= 3;
  const pools = new Set<PoolState>();
  for (const [token, d] of fromIn) {
    if (d > 2) continue;
    for (const pool of graph.byToken.get(token) ?? []) {
      if (fits(pool.token0, pool.token1) || fits(pool.token1, pool.token0)) pools.add(pool);
    }
  }
  return [...pools];
}

export interface QualityRow {
  size: number;
  trades: number;
  min: number;
  p5: number;
  median: number;
  /** Lowest router / v2-sdk best trade (V2 pools only); >= 1 means never worse. */
  minVsSdk: number;
  belowTarget: number;
}

const ratio = (a: bigint, b: bigint): number => (b === 0n ? (a === 0n ? 1 : Infinity) : Number((a * 1_000_000_000n) / b) / 1e9);

/** Every ordered pair of `tokens` at every size in QUALITY_SIZES of what the input token's deepest pool really holds of it. */
export function routerQuality(
  graph: PoolGraph,
  decimals: Map<string, number>,
  chainId: number,
  tokens: string[],
  chunks: number,
  onTrade?: (line: string) => void,
): QualityRow[] {
  const rows: QualityRow[] = [];
  for (const size of QUALITY_SIZES) {
    const ratios: number[] = [];
    let minVsSdk = Infinity;
    for (const tokenIn of tokens) {
      const held = (graph.byToken.get(tokenIn) ?? []).map((pool) => realReserveOf(pool, tokenIn));
      if (held.length === 0) continue;
      const depth = held.reduce((a, b) => (b > a ? b : a));
      const amountIn = (depth * BigInt(Math.round(size * 1e9))) / 1_000_000_000n;
      if (amountIn === 0n) continue;
      for (const tokenOut of tokens) {
        if (tokenOut === tokenIn) continue;
        const plans = searchPlans({ graph }, tokenIn, tokenOut, amountIn);
        const router = plans.reduce((m, p) => (p.amountOut > m ? p.amountOut : m), 0n);
        const optimum = exhaustiveOptimum(graph, tokenIn, tokenOut, amountIn, chunks);
        if (optimum === 0n) continue;
        const r = ratio(router, optimum);
        ratios.push(r);
        const sdk = v2SdkBest(poolsOnPaths(graph, tokenIn, tokenOut), decimals, chainId, tokenIn, tokenOut, amountIn);
        if (sdk > 0n) minVsSdk = Math.min(minVsSdk, ratio(router, sdk));
        onTrade?.(`${size} ${tokenIn.slice(0, 8)}->${tokenOut.slice(0, 8)} router/opt ${r.toFixed(6)}`);
      }
    }
    const sorted = [...ratios].sort((a, b) => a - b);
    const at = (p: number) => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] ?? NaN;
    rows.push({ size, trades: ratios.length, min: sorted[0] ?? NaN, p5: at(0.05), median: at(0.5), minVsSdk, belowTarget: ratios.filter((r) => r < 0.999).length });
  }
  return rows;
}
