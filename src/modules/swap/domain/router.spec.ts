import { findPaths } from './path-search';
import { buildPoolGraph } from './pool-graph';
import { splitAcross } from './split-search';
import type { DexProvider, PoolState } from './types';
import { getAmountOut, pathOut } from './v2-math';

const dex = (key: string): DexProvider => ({ key, name: key, type: 'uniswap-v2', factory: '0x' + 'f'.repeat(40), feeBps: 30 });
const A = '0x' + '1'.repeat(40);
const B = '0x' + '2'.repeat(40);
const C = '0x' + '3'.repeat(40);
const D = '0x' + '4'.repeat(40);
let n = 0;
const pool = (x: string, y: string, rx: bigint, ry: bigint, provider = dex('u')): PoolState => {
  const [token0, token1, reserve0, reserve1] = x < y ? [x, y, rx, ry] : [y, x, ry, rx];
  return { address: `0x${(++n).toString(16).padStart(40, '0')}`, provider, token0, token1, reserve0, reserve1 };
};
const E18 = 10n ** 18n;

describe('V2 math', () => {
  it('is the pair contract formula (997/1000 for 30 bps)', () => {
    const amountIn = 123_456_789n;
    const expected = (amountIn * 997n * 5_000_000n) / (1_000_000n * 1000n + amountIn * 997n);
    expect(getAmountOut(amountIn, 1_000_000n, 5_000_000n, 30)).toBe(expected);
    expect(getAmountOut(0n, 1n, 1n, 30)).toBe(0n);
  });
});

describe('path search', () => {
  it('finds direct, 2-hop and 3-hop simple paths and no longer ones', () => {
    const graph = buildPoolGraph([pool(A, B, E18, E18), pool(B, C, E18, E18), pool(C, D, E18, E18), pool(A, D, E18, E18, dex('s'))]);
    const paths = findPaths(graph, A, D).map((p) => p.hops.length).sort();
    expect(paths).toEqual([1, 3]);
    expect(findPaths(graph, A, C).map((p) => p.hops.map((h) => h.tokenOut))).toEqual(expect.arrayContaining([[B, C], [D, C]]));
    expect(findPaths(graph, A, D, { maxHops: 2, fanOut: 12 }).map((p) => p.hops.length)).toEqual([1]);
  });
});

describe('split search', () => {
  it('splits across two equal pools for a large trade and beats the single best', () => {
    const graph = buildPoolGraph([pool(A, B, 100n * E18, 100n * E18), pool(A, B, 100n * E18, 100n * E18, dex('s'))]);
    const paths = findPaths(graph, A, B);
    const amount = 50n * E18;
    const legs = splitAcross(paths, amount);
    expect(legs).toHaveLength(2);
    expect(legs[0].amountIn + legs[1].amountIn).toBe(amount);
    const total = legs.reduce((s, l) => s + l.amountOut, 0n);
    expect(total).toBeGreaterThan(pathOut(paths[0], amount));
    expect(legs[0].amountIn).toBe(amount / 2n);
  });

  it('never uses a pool twice', () => {
    // Both A->C paths go through the one A/B pool: only one of them may be used.
    const graph = buildPoolGraph([pool(A, B, 10n * E18, 10n * E18), pool(B, C, 10n * E18, 10n * E18), pool(B, C, 10n * E18, 10n * E18, dex('s'))]);
    const legs = splitAcross(findPaths(graph, A, C), 5n * E18);
    expect(legs).toHaveLength(1);
  });
});
