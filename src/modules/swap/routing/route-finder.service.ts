import { Injectable } from '@nestjs/common';
import { AppError } from '../../../common/errors/app-error';
import { PricingService } from '../../pricing';
import { EXECUTOR_GAS, estimateSwapGas, hopGas } from '../domain/gas-model';
import { DEFAULT_PATH_SEARCH, rankPaths, type PathSearchOptions, type RankedPath } from '../domain/path-search';
import { firstFailingLeg, simulateLegs } from '../domain/pool-sim';
import { DEFAULT_SPLIT, integerShares, SplitSearch, type SplitOptions } from '../domain/split-search';
import type { Path, RoutePlan } from '../domain/types';
import { NATIVE_TOKEN } from '../catalog/token-catalog.service';
import type { ChainMarket } from '../indexer/chain-market';
import { PoolIndexer } from '../indexer/pool-indexer.service';
import { compareRoutes, type RouteMode } from './route-ranking';

export interface RouteRequest {
  chainId: number;
  /** Lowercase token addresses; the zero address is the native currency. */
  tokenIn: string;
  tokenOut: string;
  /** What is swapped (after any fee taken from the input). */
  amountIn: bigint;
  routeMode?: RouteMode;
  /** Most candidates returned (default 5). */
  limit?: number;
}

export interface RouteCandidate {
  plan: RoutePlan;
  gasLimit: bigint;
  gasPrice: bigint;
  gasCostWei: bigint;
  nativeUsd: number | null;
  amountOutUsd: number | null;
  gasUsd: number | null;
  netUsd: number | null;
  swaps: number;
}

export interface FoundRoutes {
  market: ChainMarket;
  candidates: RouteCandidate[];
}

/**
 * The router other features use: ranked candidate routes for one same-chain swap, computed from
 * the indexer's in-memory pools with exact integer AMM math (no RPC).
 */
@Injectable()
export class RouteFinder {
  constructor(
    private readonly indexer: PoolIndexer,
    private readonly pricing: PricingService,
  ) {}

  async findRoutes(request: RouteRequest): Promise<FoundRoutes> {
    const market = await this.indexer.market(request.chainId);
    // No fresh native price at all is CHAIN_004 (503), as for relay quotes; any other failure only leaves the USD figures out.
    const nativeUsd = await this.pricing
      .nativeUsd(request.chainId)
      .then((p) => p.usd)
      .catch((err: unknown) => {
        if (err instanceof AppError && err.code === 'CHAIN_004') throw err;
        return null;
      });
    const tokenIn = this.routeToken(market, request.tokenIn);
    const tokenOut = this.routeToken(market, request.tokenOut);
    if (!tokenIn || !tokenOut || tokenIn === tokenOut || request.amountIn <= 0n) return { market, candidates: [] };

    const outDecimals = market.tokens.get(tokenOut)?.decimals;
    const outNativePrice = market.nativePrices.get(tokenOut);
    // Output-token units (raw) one gas unit costs: lets the router drop split legs that do not pay their gas.
    const gasPerUnitOut = outDecimals !== undefined && outNativePrice ? (Number(market.gasPrice) / 1e18 / outNativePrice) * 10 ** outDecimals : undefined;
    const plans = searchPlans(market, tokenIn, tokenOut, request.amountIn, { gasPerUnitOut });
    const nativeIn = request.tokenIn === NATIVE_TOKEN;
    const nativeOut = request.tokenOut === NATIVE_TOKEN;
    const candidates = plans.map((plan): RouteCandidate => {
      const gasLimit = estimateSwapGas(plan, nativeIn, nativeOut);
      const gasCostWei = gasLimit * market.gasPrice;
      const amountOutUsd = nativeUsd !== null && outDecimals !== undefined && outNativePrice !== undefined ? (Number(plan.amountOut) / 10 ** outDecimals) * outNativePrice * nativeUsd : null;
      const gasUsd = nativeUsd !== null ? (Number(gasCostWei) / 1e18) * nativeUsd : null;
      return {
        plan: { ...plan, tokenIn: request.tokenIn, tokenOut: request.tokenOut },
        gasLimit,
        gasPrice: market.gasPrice,
        gasCostWei,
        nativeUsd,
        amountOutUsd,
        gasUsd,
        netUsd: amountOutUsd !== null && gasUsd !== null ? amountOutUsd - gasUsd : null,
        swaps: plan.legs.reduce((n, leg) => n + leg.path.hops.length, 0),
      };
    });
    const compare = compareRoutes(request.routeMode ?? 'max_value');
    candidates.sort((a, b) => compare({ ...a, amountOut: a.plan.amountOut }, { ...b, amountOut: b.plan.amountOut }));
    return { market, candidates: candidates.slice(0, request.limit ?? 5) };
  }

  /** Native currency routes through the wrapped token; null for tokens outside the catalog. */
  private routeToken(market: ChainMarket, token: string): string | null {
    if (token === NATIVE_TOKEN) return market.wrappedNative;
    return market.tokens.has(token) ? token : null;
  }
}

/**
 * Paths the split may use: the best by full-amount output, the best for a small slice (a shallow
 * pool at a good price), and the best through each pair of consecutive pools not already among
 * them (parallel routes that the first two lists crowd out with variants of one route).
 */
const SPLIT_BY_FULL = 16;
const SPLIT_BY_SLICE = 8;
const SPLIT_BY_LINK = 12;
/** Gas-driven removals of legs from the best raw split, at most. */
const MAX_PRUNES = 3;

export interface SearchOptions {
  search?: PathSearchOptions;
  split?: SplitOptions;
  /** Best single paths returned (besides the best of each length). */
  singles?: number;
  /** Output-token units one unit of gas costs; with it, a split variant drops legs that do not pay their gas. */
  gasPerUnitOut?: number;
}

/**
 * Candidate plans for one amount: the best single paths (and the best of each length), the split
 * with the largest raw output when it beats every single path, and, when gas has a price in the
 * output token, that split without the legs whose output does not pay their gas. Pure, so the
 * bench can time it.
 */
export function searchPlans(market: Pick<ChainMarket, 'graph'>, tokenIn: string, tokenOut: string, amountIn: bigint, options: SearchOptions = {}): RoutePlan[] {
  const x = Number(amountIn);
  const singlesWanted = options.singles ?? 4;
  // One walk ranks every path in floating point (cheap); every stated amount is exact.
  const ranked = rankPaths(market.graph, tokenIn, tokenOut, x, { full: Math.max(SPLIT_BY_FULL, singlesWanted + 4), slice: SPLIT_BY_SLICE, perLink: SPLIT_BY_LINK }, options.search ?? DEFAULT_PATH_SEARCH);
  if (ranked.bySlice.length === 0) return [];

  const single = (path: Path): RoutePlan | null => {
    const sim = simulateLegs([{ path, amountIn }]);
    return sim && sim.amountOut > 0n ? { tokenIn, tokenOut, amountIn, amountOut: sim.amountOut, legs: sim.legs } : null;
  };
  const chosen = new Set<RankedPath>(ranked.byFull.slice(0, singlesWanted + 4));
  for (const best of ranked.bestByLength) if (best) chosen.add(best);
  const singles = [...chosen].map((r) => single(r.path)).filter((p): p is RoutePlan => p !== null);
  singles.sort((a, b) => (b.amountOut > a.amountOut ? 1 : b.amountOut < a.amountOut ? -1 : a.legs[0].path.hops.length - b.legs[0].path.hops.length));
  const keep = new Set(singles.slice(0, singlesWanted));
  for (const hops of [1, 2, 3]) {
    const best = singles.find((p) => p.legs[0].path.hops.length === hops);
    if (best) keep.add(best);
  }
  const plans = singles.filter((p) => keep.has(p));
  const bestSingle = singles[0]?.amountOut ?? 0n;

  // Split candidates: the best paths at full size, plus the best for a small slice.
  const candidates = new Set<Path>(ranked.byFull.slice(0, SPLIT_BY_FULL).map((r) => r.path));
  for (const r of ranked.bySlice) candidates.add(r.path);
  for (const r of ranked.byLink) candidates.add(r.path);
  if (candidates.size < 2) return plans;
  const search = new SplitSearch([...candidates]);
  const splitOptions = options.split ?? DEFAULT_SPLIT;
  let found = search.optimize(x, splitOptions);
  const toPlan = (order: number[], amounts: number[]): RoutePlan | null => {
    if (order.length < 2) return null;
    const shares = integerShares(amountIn, order.map((i) => amounts[i]));
    const parts = order.map((i, k) => ({ path: search.paths[i].path, amountIn: shares[k] })).filter((p) => p.amountIn > 0n);
    if (parts.length < 2) return null;
    const sim = simulateLegs(parts);
    return sim && sim.amountOut > bestSingle ? { tokenIn, tokenOut, amountIn, amountOut: sim.amountOut, legs: sim.legs } : null;
  };
  // A leg the float model fills but the exact pool cannot (a V3 pool at the very end of its
  // ticks) sinks the plan: allocate again without that path.
  const excluded = new Set<number>();
  for (let retry = 0; retry < 3 && found.order.length > 1; retry++) {
    const shares = integerShares(amountIn, found.order.map((i) => found.amounts[i]));
    const failing = firstFailingLeg(found.order.map((i, k) => ({ path: search.paths[i].path, amountIn: shares[k] })));
    if (failing < 0) break;
    excluded.add(found.order[failing]);
    found = search.optimize(x, splitOptions, search.paths.map((_, i) => i).filter((i) => !excluded.has(i)));
  }
  const best = toPlan(found.order, found.amounts);
  if (best) plans.push(best);

  // Gas-aware variant: drop the leg whose gas costs most beyond what it adds, re-optimize, repeat.
  const gasPerUnitOut = options.gasPerUnitOut;
  if (best && gasPerUnitOut !== undefined && gasPerUnitOut > 0) {
    let pruned = false;
    for (let round = 0; round < MAX_PRUNES && found.order.length > 2; round++) {
      let drop = -1;
      let dropGain = 0;
      for (const i of found.order) {
        const rest = found.order.filter((j) => j !== i);
        const restSum = rest.reduce((s, j) => s + found.amounts[j], 0);
        const spread = found.amounts.map((a, j) => (rest.includes(j) ? a + (found.amounts[i] * a) / restSum : 0));
        const loss = found.total - search.total(rest, spread);
        const gas = Number(search.paths[i].path.hops.reduce((g, h) => g + hopGas(h.pool.kind), EXECUTOR_GAS.perLeg)) * gasPerUnitOut;
        if (gas - loss > dropGain) {
          dropGain = gas - loss;
          drop = i;
        }
      }
      if (drop < 0) break;
      found = search.optimize(x, splitOptions, found.order.filter((j) => j !== drop && !excluded.has(j)));
      pruned = true;
    }
    const lean = pruned ? toPlan(found.order, found.amounts) : null;
    if (lean) plans.push(lean);
  }
  return plans;
}
