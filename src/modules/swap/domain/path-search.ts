import { otherToken, pairKey, type PoolGraph } from './pool-graph';
import { floatStatic, floatSwap, freshStateInto } from './float-sim';
import type { Path, PoolState } from './types';

export interface PathSearchOptions {
  /** Longest path, in hops (the issue: up to 3). */
  maxHops: number;
  /**
   * Pools expanded per intermediate token, deepest first, where the path could still go on for
   * two hops or more (only with maxHops > 3). The first hop considers every pool out of tokenIn,
   * the last every pool into tokenOut, and the hop before the last every pool towards a token
   * that has a pool into tokenOut (no other pool there can end a path): so with 3 hops every
   * path is walked, and a hub in the middle (USDC with thousands of pools) costs one set lookup
   * per pool, not a walk of each.
   */
  fanOut: number;
}

export const DEFAULT_PATH_SEARCH: PathSearchOptions = { maxHops: 3, fanOut: 12 };

/** Every simple path (no token or pool twice) from tokenIn to tokenOut of at most maxHops pools. */
export function findPaths(graph: PoolGraph, tokenIn: string, tokenOut: string, options: PathSearchOptions = DEFAULT_PATH_SEARCH): Path[] {
  const paths: Path[] = [];
  const visited = new Set<string>([tokenIn]);
  const stack: PoolState[] = [];
  const tokens: string[] = [tokenIn];

  const emit = (last: PoolState): void => {
    const pools = [...stack, last];
    paths.push({ hops: pools.map((pool, i) => ({ pool, tokenIn: tokens[i], tokenOut: i + 1 < tokens.length ? tokens[i + 1] : tokenOut })) });
  };

  const closes = closingTokens(graph, tokenOut);
  const walk = (token: string, depth: number): void => {
    // Close the path into tokenOut from here (all pools of the pair).
    for (const pool of graph.byPair.get(pairKey(token, tokenOut)) ?? []) emit(pool);
    if (depth + 1 >= options.maxHops) return;
    const candidates = graph.byToken.get(token) ?? [];
    const beforeLast = depth + 2 === options.maxHops;
    const limit = depth === 0 || beforeLast ? candidates.length : Math.min(candidates.length, options.fanOut);
    for (let i = 0; i < limit; i++) {
      const pool = candidates[i];
      const next = otherToken(pool, token);
      if (next === tokenOut || visited.has(next) || (beforeLast && !closes.has(next))) continue;
      visited.add(next);
      stack.push(pool);
      tokens.push(next);
      walk(next, depth + 1);
      tokens.pop();
      stack.pop();
      visited.delete(next);
    }
  };

  if (tokenIn !== tokenOut) walk(tokenIn, 0);
  return paths;
}

/** A hub's closing map is kept per graph (graphs are rebuilt, never changed, when pools change). */
const CLOSING_CACHE_FROM_POOLS = 256;
const CLOSING_CACHE_PER_GRAPH = 32;
const closingCache = new WeakMap<PoolGraph, Map<string, Map<string, PoolState[]>>>();

/**
 * Tokens with a pool into tokenOut, each with those pools. For a hub (USDC with 13,000 pools in a
 * 20,000-pool market) building it was most of a quote's CPU, so it is kept for the graph.
 */
function closingTokens(graph: PoolGraph, tokenOut: string): Map<string, PoolState[]> {
  const into = graph.byToken.get(tokenOut) ?? [];
  if (into.length < CLOSING_CACHE_FROM_POOLS) return buildClosing(graph, tokenOut);
  let cached = closingCache.get(graph);
  if (!cached) closingCache.set(graph, (cached = new Map()));
  let closing = cached.get(tokenOut);
  if (!closing) {
    if (cached.size >= CLOSING_CACHE_PER_GRAPH) cached.clear();
    cached.set(tokenOut, (closing = buildClosing(graph, tokenOut)));
  }
  return closing;
}

function buildClosing(graph: PoolGraph, tokenOut: string): Map<string, PoolState[]> {
  const closing = new Map<string, PoolState[]>();
  for (const pool of graph.byToken.get(tokenOut) ?? []) {
    const other = otherToken(pool, tokenOut);
    const list = closing.get(other);
    if (list) list.push(pool);
    else closing.set(other, [pool]);
  }
  return closing;
}

/** A path with its float-model output for the full input and for a small slice of it. */
export interface RankedPath {
  path: Path;
  full: number;
  slice: number;
}

export interface RankedPaths {
  /** Best by full-amount output, best first. */
  byFull: RankedPath[];
  /** Best by output for amount/SLICE (a shallow pool at a good price), best first. */
  bySlice: RankedPath[];
  /** Best by full-amount output among paths of 1, 2 and 3 hops. */
  bestByLength: Array<RankedPath | undefined>;
  /**
   * The best path through each pair of consecutive pools, by output for the slice (a pool that
   * cannot take the full amount may still carry part of it), best first
   * (distinct paths, none already in byFull or bySlice). A split needs parallel capacity, and
   * paths that differ only in a hub pool (four WETH/USDC pools in front of every USDC->X route)
   * otherwise fill byFull with copies of one route and leave the other routes out. Paths with a
   * pool no listed path has come first (pickCovering), then the rest by slice output.
   */
  byLink: RankedPath[];
  /** Paths evaluated. */
  seen: number;
}

export const SLICE = 32;

/** Keeps the `size` best by score in a small sorted array. */
function offer(list: RankedPath[], size: number, item: () => RankedPath, score: number, key: (r: RankedPath) => number): void {
  if (list.length >= size && score <= key(list[list.length - 1])) return;
  const made = item();
  let i = list.length;
  while (i > 0 && key(list[i - 1]) < score) i--;
  list.splice(i, 0, made);
  if (list.length > size) list.pop();
}

/**
 * findPaths and a first ranking in one walk: each path's float-model output (float-sim.ts) is
 * carried hop by hop, and only the paths that make a shortlist become Path objects. This is
 * what keeps a quote on a 10,000-pool graph within a few milliseconds.
 */
export function rankPaths(graph: PoolGraph, tokenIn: string, tokenOut: string, amountIn: number, keep: { full: number; slice: number; perLink?: number }, options: PathSearchOptions = DEFAULT_PATH_SEARCH): RankedPaths {
  const result: RankedPaths = { byFull: [], bySlice: [], bestByLength: [undefined, undefined, undefined], byLink: [], seen: 0 };
  const perLink = keep.perLink ?? 0;
  // Best path through each pair of consecutive pools (a 1-hop path: its pool, paired with itself).
  const bestByLink = new Map<PoolState, Map<PoolState, RankedPath>>();
  const offerLink = (a: PoolState, b: PoolState, slice: number, get: () => RankedPath): void => {
    let inner = bestByLink.get(a);
    if (!inner) bestByLink.set(a, (inner = new Map()));
    const current = inner.get(b);
    if (!current || slice > current.slice) inner.set(b, get());
  };
  if (tokenIn === tokenOut) return result;
  const visited = new Set<string>([tokenIn]);
  const stack: PoolState[] = [];
  const tokens: string[] = [tokenIn];
  const fullAt: number[] = [amountIn];
  const sliceAt: number[] = [amountIn / SLICE];
  const state = new Float64Array(3);

  const through = (pool: PoolState, token: string, x: number): number => {
    if (!(x > 0)) return 0;
    const st = floatStatic(pool);
    if (st.kind === 'v2') {
      const zeroForOne = token === pool.token0;
      const gx = st.g * x;
      return (gx * (zeroForOne ? st.r1 : st.r0)) / ((zeroForOne ? st.r0 : st.r1) + gx);
    }
    return floatSwap(st, freshStateInto(st, state), token === pool.token0, x, false);
  };
  // Pools into tokenOut by their other token: the closing hop without building pair keys per step.
  const closing = closingTokens(graph, tokenOut);
  const materialize = (last: PoolState, full: number, slice: number) => (): RankedPath => {
    const pools = [...stack, last];
    return { full, slice, path: { hops: pools.map((pool, i) => ({ pool, tokenIn: tokens[i], tokenOut: i + 1 < tokens.length ? tokens[i + 1] : tokenOut })) } };
  };

  /** Whether walking into `token` (the level before the last) could reach a closing token, as that walk checks it. */
  const leadsToClosing = (token: string): boolean => {
    for (const pool of graph.byToken.get(token) ?? []) {
      const next = otherToken(pool, token);
      if (next !== tokenOut && !visited.has(next) && closing.has(next)) return true;
    }
    return false;
  };

  const walk = (token: string, depth: number): void => {
    for (const pool of closing.get(token) ?? []) {
      const full = through(pool, token, fullAt[depth]);
      const slice = through(pool, token, sliceAt[depth]);
      result.seen++;
      if (!(slice > 0)) continue;
      let made: RankedPath | undefined;
      const once = materialize(pool, full, slice);
      const get = (): RankedPath => (made ??= once());
      if (full > 0) {
        offer(result.byFull, keep.full, get, full, (r) => r.full);
        const best = result.bestByLength[depth];
        if (!best || full > best.full) result.bestByLength[depth] = get();
      }
      offer(result.bySlice, keep.slice, get, slice, (r) => r.slice);
      if (perLink > 0) {
        if (depth === 0) offerLink(pool, pool, slice, get);
        for (let h = 0; h < depth; h++) offerLink(stack[h], h + 1 < depth ? stack[h + 1] : pool, slice, get);
      }
    }
    if (depth + 1 >= options.maxHops) return;
    const candidates = graph.byToken.get(token) ?? [];
    const beforeLast = depth + 2 === options.maxHops;
    const nextBeforeLast = depth + 3 === options.maxHops;
    const limit = depth === 0 || beforeLast ? candidates.length : Math.min(candidates.length, options.fanOut);
    for (let i = 0; i < limit; i++) {
      const pool = candidates[i];
      const next = otherToken(pool, token);
      if (next === tokenOut || visited.has(next) || (beforeLast && !closing.has(next))) continue;
      // From a hub (USDC's 13,000 pools at 20,000), most next tokens can end no path: skip them
      // before simulating the hop (a V3 hop is a float swap) rather than after.
      if (nextBeforeLast && !closing.has(next) && !leadsToClosing(next)) continue;
      const slice = through(pool, token, sliceAt[depth]);
      if (!(slice > 0)) continue;
      visited.add(next);
      stack.push(pool);
      tokens.push(next);
      fullAt[depth + 1] = through(pool, token, fullAt[depth]);
      sliceAt[depth + 1] = slice;
      walk(next, depth + 1);
      tokens.pop();
      stack.pop();
      visited.delete(next);
    }
  };
  walk(tokenIn, 0);
  if (perLink > 0) {
    const listed = new Set([...result.byFull, ...result.bySlice]);
    const best = new Set<RankedPath>();
    for (const inner of bestByLink.values()) for (const r of inner.values()) if (!listed.has(r)) best.add(r);
    result.byLink = pickCovering([...best].sort((a, b) => b.slice - a.slice), listed, perLink);
  }
  return result;
}

/**
 * Up to `size` of `ranked` (best first), those with a pool no path picked so far (nor `listed`)
 * goes through first, then the rest in order. A pool's capacity can only reach the split through a
 * path that holds it: without this, variants of one route that differ in a pool already listed
 * (each WETH/USDC pool in front of the same USDC->XT3->XT4) fill the list, and a parallel
 * route's own pool (USDC->XT5 on a second DEX) never becomes a candidate.
 */
function pickCovering(ranked: RankedPath[], listed: Iterable<RankedPath>, size: number): RankedPath[] {
  const covered = new Set<PoolState>();
  for (const r of listed) for (const hop of r.path.hops) covered.add(hop.pool);
  const picked: RankedPath[] = [];
  const rest: RankedPath[] = [];
  for (const r of ranked) {
    if (picked.length >= size) break;
    if (r.path.hops.some((hop) => !covered.has(hop.pool))) {
      picked.push(r);
      for (const hop of r.path.hops) covered.add(hop.pool);
    } else rest.push(r);
  }
  for (const r of rest) {
    if (picked.length >= size) break;
    picked.push(r);
  }
  return picked;
}
