import { Injectable } from '@nestjs/common';
import { PricingService } from '../../pricing';
import { estimateSwapGas } from '../domain/gas-model';
import { DEFAULT_PATH_SEARCH, findPaths, type PathSearchOptions } from '../domain/path-search';
import { DEFAULT_SPLIT, splitAcross, type SplitOptions } from '../domain/split-search';
import type { Path, RoutePlan } from '../domain/types';
import { pathOut } from '../domain/v2-math';
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

/** Paths whose full-amount output is best are the ones worth splitting across. */
const SPLIT_POOL = 20;

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
    const nativeUsd = await this.pricing
      .nativeUsd(request.chainId)
      .then((p) => p.usd)
      .catch(() => null);
    const tokenIn = this.routeToken(market, request.tokenIn);
    const tokenOut = this.routeToken(market, request.tokenOut);
    if (!tokenIn || !tokenOut || tokenIn === tokenOut || request.amountIn <= 0n) return { market, candidates: [] };

    const plans = searchPlans(market, tokenIn, tokenOut, request.amountIn);
    const nativeIn = request.tokenIn === NATIVE_TOKEN;
    const nativeOut = request.tokenOut === NATIVE_TOKEN;
    const outDecimals = market.tokens.get(tokenOut)?.decimals;
    const outNativePrice = market.nativePrices.get(tokenOut);
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
 * Candidate plans for one amount: the best single path of each length, the next best single
 * paths, and the best split when it beats every single path. Pure, so the bench can time it.
 */
export function searchPlans(
  market: Pick<ChainMarket, 'graph'>,
  tokenIn: string,
  tokenOut: string,
  amountIn: bigint,
  options: { search?: PathSearchOptions; split?: SplitOptions; singles?: number } = {},
): RoutePlan[] {
  const paths = findPaths(market.graph, tokenIn, tokenOut, options.search ?? DEFAULT_PATH_SEARCH);
  const quoted = paths.map((path) => ({ path, out: pathOut(path, amountIn) })).filter((q) => q.out > 0n);
  quoted.sort((a, b) => (b.out > a.out ? 1 : b.out < a.out ? -1 : a.path.hops.length - b.path.hops.length));
  if (quoted.length === 0) return [];

  const single = (path: Path, out: bigint): RoutePlan => ({ tokenIn, tokenOut, amountIn, amountOut: out, legs: [{ path, amountIn, amountOut: out }] });
  const chosen = new Set<(typeof quoted)[number]>(quoted.slice(0, options.singles ?? 4));
  for (const hops of [1, 2, 3]) {
    const best = quoted.find((q) => q.path.hops.length === hops);
    if (best) chosen.add(best);
  }
  const plans = [...chosen].map((q) => single(q.path, q.out));

  const legs = splitAcross(
    quoted.slice(0, SPLIT_POOL).map((q) => q.path),
    amountIn,
    options.split ?? DEFAULT_SPLIT,
  );
  const splitOut = legs.reduce((sum, leg) => sum + leg.amountOut, 0n);
  if (legs.length > 1 && splitOut > quoted[0].out) plans.push({ tokenIn, tokenOut, amountIn, amountOut: splitOut, legs });
  return plans;
}
