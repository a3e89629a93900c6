import { findPaths, rankPaths } from './path-search';
import { buildPoolGraph } from './pool-graph';
import type { DexProvider, PoolState } from './types';

/**
 * rankPaths skips, from a hub, next tokens that can end no 3-hop path, and keeps a hub's closing
 * map per graph (bench:quote at 20,000 pools). Both must leave the walk's paths as they were:
 * every path findPaths lists (no pruning) is still evaluated, cached or not.
 */
const dex: DexProvider = { key: 'uniswap-v2', name: 'Uniswap V2', type: 'uniswap-v2', factory: '0x' + 'f'.repeat(40), feeBps: 30 };
const other: DexProvider = { ...dex, key: 'other-v2', name: 'Other' };
const token = (i: number): string => `0x${i.toString(16).padStart(40, '0')}`;
const [USDC, WETH, DAI, WBTC] = [token(1), token(2), token(3), token(4)];
const xt = (k: number): string => token(100 + k);

function hubGraph(spokes: number) {
  const pools: PoolState[] = [];
  const pool = (a: string, b: string, provider = dex, units = 10_000n): void => {
    const [token0, token1] = a < b ? [a, b] : [b, a];
    pools.push({ kind: 'v2', address: `0xa${(pools.length + 1).toString(16).padStart(39, '0')}`, provider, token0, token1, reserve0: units * 10n ** 18n, reserve1: units * 10n ** 18n });
  };
  pool(WETH, USDC);
  pool(DAI, USDC);
  pool(WBTC, USDC);
  pool(WETH, DAI);
  pool(WBTC, WETH, other);
  pool(DAI, xt(1));
  for (let k = 1; k <= spokes; k++) {
    pool(USDC, xt(k), dex, 10_000n + BigInt(k));
    pool(USDC, xt(k), other, 9_000n + BigInt(k));
    if (k > 1) pool(xt(k - 1), xt(k));
  }
  return buildPoolGraph(pools);
}

describe('rankPaths from and into a hub', () => {
  const graph = hubGraph(300); // USDC has > 256 pools: its closing map is cached
  const pairs: Array<[string, string]> = [
    [USDC, WETH],
    [WETH, USDC],
    [USDC, xt(150)],
    [xt(150), USDC],
    [xt(10), xt(200)],
    [DAI, xt(2)],
    [USDC, DAI],
    [WBTC, DAI],
  ];

  it.each(pairs)('%s -> %s evaluates every path findPaths lists, on the first and a cached call', (a, b) => {
    const all = findPaths(graph, a, b);
    expect(all.length).toBeGreaterThan(0);
    for (let call = 0; call < 2; call++) {
      const ranked = rankPaths(graph, a, b, 1e18, { full: 8, slice: 4, perLink: 4 });
      expect(ranked.seen).toBe(all.length);
      const key = (hops: Array<{ pool: PoolState }>) => hops.map((h) => h.pool.address).join('>');
      const listed = new Set(all.map((p) => key(p.hops)));
      for (const r of [...ranked.byFull, ...ranked.bySlice, ...ranked.byLink]) expect(listed.has(key(r.path.hops))).toBe(true);
    }
  });

  it('the best path by full output is the best of all listed paths', () => {
    // USDC -> XT150: direct pools beat any detour.
    const ranked = rankPaths(graph, USDC, xt(150), 1e18, { full: 4, slice: 4 });
    expect(ranked.byFull[0].path.hops).toHaveLength(1);
  });
});
