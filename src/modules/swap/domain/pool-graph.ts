import type { PoolState } from './types';

/**
 * Pools indexed for the router, rebuilt whenever reserves change (not per quote). Each token's
 * pools are sorted by that token's reserve, deepest first, so the search can expand the most
 * liquid pools of intermediate tokens only.
 */
export interface PoolGraph {
  byToken: Map<string, PoolState[]>;
  byPair: Map<string, PoolState[]>;
  size: number;
}

export const pairKey = (a: string, b: string): string => (a < b ? `${a}/${b}` : `${b}/${a}`);

export function otherToken(pool: PoolState, token: string): string {
  return token === pool.token0 ? pool.token1 : pool.token0;
}

export function reserveOf(pool: PoolState, token: string): bigint {
  return token === pool.token0 ? pool.reserve0 : pool.reserve1;
}

export function buildPoolGraph(pools: Iterable<PoolState>): PoolGraph {
  const byToken = new Map<string, PoolState[]>();
  const byPair = new Map<string, PoolState[]>();
  let size = 0;
  for (const pool of pools) {
    if (pool.reserve0 === 0n || pool.reserve1 === 0n) continue;
    size++;
    for (const token of [pool.token0, pool.token1]) {
      const list = byToken.get(token);
      if (list) list.push(pool);
      else byToken.set(token, [pool]);
    }
    const key = pairKey(pool.token0, pool.token1);
    const list = byPair.get(key);
    if (list) list.push(pool);
    else byPair.set(key, [pool]);
  }
  for (const [token, list] of byToken) list.sort((a, b) => (reserveOf(b, token) > reserveOf(a, token) ? 1 : reserveOf(b, token) < reserveOf(a, token) ? -1 : 0));
  return { byToken, byPair, size };
}

/**
 * Spot price of each reachable token in wrapped-native units per whole token, from the deepest
 * pool towards an already priced token (wrapped native first, then outwards). Floats are fine
 * here: these prices only produce the USD figures of a route, never an amount.
 */
export function nativePrices(graph: PoolGraph, wrappedNative: string, decimals: Map<string, number>): Map<string, number> {
  const prices = new Map<string, number>([[wrappedNative, 1]]);
  let frontier = [wrappedNative];
  while (frontier.length > 0) {
    const next: string[] = [];
    for (const priced of frontier) {
      for (const pool of graph.byToken.get(priced) ?? []) {
        const token = otherToken(pool, priced);
        if (prices.has(token)) continue;
        const dToken = decimals.get(token);
        const dPriced = decimals.get(priced);
        if (dToken === undefined || dPriced === undefined) continue;
        // The deepest pool comes first in the list, so the first pool seen prices the token.
        const amountPriced = Number(reserveOf(pool, priced)) / 10 ** dPriced;
        const amountToken = Number(reserveOf(pool, token)) / 10 ** dToken;
        if (amountToken <= 0) continue;
        prices.set(token, ((prices.get(priced) ?? 0) * amountPriced) / amountToken);
        next.push(token);
      }
    }
    frontier = next;
  }
  return prices;
}
