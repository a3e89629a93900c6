import { planExtraPools } from './extra-pools';

describe('planExtraPools (LOCAL_EXTRA_POOLS)', () => {
  it.each([1, 2, 7, 200, 20_000])('%i pools: exactly that many, distinct, each extra token joined to the USDC hub by a V2 and a V3 pool', (n) => {
    const plan = planExtraPools(n);
    expect(plan.pools).toHaveLength(n);
    expect(new Set(plan.pools.map((p) => `${p.a}/${p.b}/${p.kind}`)).size).toBe(n);
    expect(plan.tokens).toBe(Math.max(...plan.pools.map((p) => p.b)));
    for (const p of plan.pools) expect(p.a < p.b && p.b <= plan.tokens).toBe(true);
    const keys = new Set(plan.pools.map((p) => `${p.a}/${p.b}/${p.kind}`));
    for (let k = 1; k < plan.tokens; k++) expect([keys.has(`0/${k}/v2`), keys.has(`0/${k}/v3`)]).toEqual([true, true]);
    if (n >= 2) expect(new Set(plan.pools.map((p) => p.kind))).toEqual(new Set(['v2', 'v3']));
  });
});
