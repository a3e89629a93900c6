import { otherToken, pairKey, type PoolGraph } from './pool-graph';
import type { Path, PoolState } from './types';

export interface PathSearchOptions {
  /** Longest path, in hops (the issue: up to 3). */
  maxHops: number;
  /**
   * Pools expanded per intermediate token, deepest first. The last hop always considers every
   * pool into tokenOut, and the first every pool out of tokenIn, so a direct or shallow route is
   * never missed; this bounds the middle of the search, which is what explodes on big graphs.
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

  const walk = (token: string, depth: number): void => {
    // Close the path into tokenOut from here (all pools of the pair).
    for (const pool of graph.byPair.get(pairKey(token, tokenOut)) ?? []) emit(pool);
    if (depth + 1 >= options.maxHops) return;
    const candidates = graph.byToken.get(token) ?? [];
    const limit = depth === 0 ? candidates.length : Math.min(candidates.length, options.fanOut);
    for (let i = 0; i < limit; i++) {
      const pool = candidates[i];
      const next = otherToken(pool, token);
      if (next === tokenOut || visited.has(next)) continue;
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

export function poolsOf(path: Path): string[] {
  return path.hops.map((h) => h.pool.address);
}
