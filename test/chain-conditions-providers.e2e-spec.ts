import { LedgerService } from '../src/modules/accounts';
import { ChainHealthService, ChainRegistry } from '../src/modules/chains';
import { adminAuth } from './support/test-app';
import { markCall } from './support/chain-conditions/anvil-control';
import { CONDITIONS_PORT, Scenario, startScenario } from './support/chain-conditions/scenario';

/**
 * Chain conditions, many providers (docs/spec/extensions.md, "RPC providers"): the relay talks
 * to one anvil through several providers at once, each with its own fault, and nothing of what
 * was accepted is lost, doubled, stuck or failed; the ledger is exact; the app is never restarted.
 * Counted from the chain.
 */
describe('chain conditions: several providers in front of one chain', () => {
  let s: Scenario | undefined;
  afterEach(async () => {
    await s?.stop();
    s = undefined;
  });

  const expectClean = async (sc: Scenario, batch: Awaited<ReturnType<Scenario['submit']>>) => {
    const tally = await sc.tally(batch);
    if (process.env.TEST_LOGS) console.log(tally, sc.proxies.map((p) => p.stats));
    expect(tally).toMatchObject({ doubled: 0, lost: 0, failedButExecuted: 0, pending: 0, ledgerDiff: 0n, chargeDiff: 0n });
    expect(tally.statuses).toEqual({ EXECUTED: batch.txIds.length });
    expect((await sc.app.app.get(LedgerService).audit(sc.userId)).reconciles).toBe(true);
  };

  it('one provider dead, one lagging 3 s, one answering 429 above 30 requests/s: 0 lost, 0 doubled, 0 stuck, 0 FAILED; their key shown nowhere', async () => {
    // The providers' key comes from the environment through a ${VAR} placeholder, as in production.
    process.env.SCENARIO_PROVIDER_KEY = 'SECRETKEY31441';
    s = await startScenario({
      name: 'providers-three',
      chainId: 31441,
      basePort: CONDITIONS_PORT + 30,
      urlPath: '/v3/${SCENARIO_PROVIDER_KEY}',
      providers: [{ dead: true }, { lagMs: 3000 }, { rateLimitRps: 30, retryAfterSeconds: 1 }],
      confirmations: 2,
    });
    await s.chain.intervalMining(1);
    const batch = await s.submit(60);
    // Clients asking for quotes meanwhile: a burst of reads well above the limited provider's 30/s, all answered.
    const quotes = await Promise.all(
      Array.from({ length: 80 }, (_, i) => s!.app.http().post('/api/quote').set('api-key', s!.apiKey).send({ chainId: 31441, to: s!.chain.marker, callData: markCall(BigInt(i + 1)) })),
    );
    expect(quotes.filter((q) => q.status >= 300)).toEqual([]);
    await s.drain(batch, 90_000);
    await expectClean(s, batch);
    const [dead, lagging, limited] = s.proxies;
    // Each fault was met: the dead one was tried and cut, the limited one refused with 429s, the lagging one served.
    expect(dead.stats.cut).toBeGreaterThan(0);
    expect(limited.stats.rateLimited).toBeGreaterThan(0);
    expect(lagging.stats.calls).toBeGreaterThan(0);
    // Every signed transaction went to every provider that took calls (the same bytes).
    expect(lagging.stats.sends + limited.stats.sends).toBeGreaterThanOrEqual(batch.txIds.length);
    // The dead provider is backed off, the others are not all out; /health shows them redacted.
    const health = await s.app.http().get('/health').expect(200);
    const providers = health.body.checks.chains.find((c: { chainId: number }) => c.chainId === 31441).providers;
    expect(providers.map((p: { url: string }) => p.url)).toEqual(s.proxies.map((p) => `${p.url}/***`));
    expect(providers[0]).toMatchObject({ healthy: false });
    const metrics = await s.app.http().get('/metrics').expect(200);
    expect(metrics.text).toContain(`chain_rpc_provider_healthy{chain="31441",provider="${dead.url}/***"} 0`);
    expect(metrics.text).toMatch(/chain_rpc_requests_total\{chain="31441",provider="http:\/\/127\.0\.0\.1:\d+\/\*\*\*",method="eth_sendRawTransaction",outcome="ok"\} [1-9]/);
    const admin = await s.app.http().get('/admin/health').set(adminAuth).expect(200);
    const rows = await s.db.query(`SELECT row_to_json(t)::text AS j FROM relay_transactions t WHERE id = ANY($1)`, [batch.txIds]);
    for (const text of [health.text, metrics.text, admin.text, JSON.stringify(rows)]) expect(text).not.toContain('SECRETKEY31441');
    expect(s.app.app.get(ChainRegistry).pool(31441).endpoints[0].lastError).toMatch(/connection reset|connection refused/);
  }, 240_000);

  it('a flapping pair (each fails every call for 15 s in turn): 0 lost, 0 doubled, 0 stuck, 0 FAILED', async () => {
    const flap = { periodMs: 30_000, downMs: 15_000 };
    s = await startScenario({
      name: 'providers-flapping',
      chainId: 31442,
      basePort: CONDITIONS_PORT + 40,
      // B starts down for its first 15 s while A is up; then they swap, and again.
      providers: [{ flap: { ...flap, phaseMs: 15_000 } }, { flap: { ...flap, phaseMs: 0 } }],
      confirmations: 2,
    });
    await s.chain.intervalMining(1);
    const until = Date.now() + 35_000;
    const batches: Array<Awaited<ReturnType<Scenario['submit']>>> = [];
    // Submissions spread over both swaps: some meet A down, some B down.
    while (Date.now() < until) {
      batches.push(await s.submitResilient(4));
      await new Promise((r) => setTimeout(r, 2500));
    }
    const batch = { txIds: batches.flatMap((b) => b.txIds), marks: batches.flatMap((b) => b.marks) };
    await s.drain(batch, 90_000);
    await expectClean(s, batch);
    const [a, b] = s.proxies;
    expect(a.stats.flapped).toBeGreaterThan(0);
    expect(b.stats.flapped).toBeGreaterThan(0);
  }, 240_000);

  it('providers taking JSON-RPC batches (maxBatch 10), one losing a fifth of its requests: 0 lost, 0 doubled, 0 stuck, 0 FAILED; calls went out in batches', async () => {
    s = await startScenario({ name: 'providers-batches', chainId: 31444, basePort: CONDITIONS_PORT + 80, providers: [{}, { dropShare: 0.2, seed: 7 }], maxBatch: 10, confirmations: 2 });
    await s.chain.intervalMining(1);
    const batch = await s.submit(40);
    await s.drain(batch, 90_000);
    await expectClean(s, batch);
    const [whole, lossy] = s.proxies;
    // The calls of one turn went out together, and a lost batch (every call in it) was retried, not lost.
    expect(whole.stats.batches + lossy.stats.batches).toBeGreaterThan(0);
    expect(lossy.stats.dropped).toBeGreaterThan(0);
  }, 240_000);

  it('every provider down for a while: the chain leaves supported-chains, accepted transactions wait (nothing FAILED), then all execute once', async () => {
    s = await startScenario({ name: 'providers-all-down', chainId: 31443, basePort: CONDITIONS_PORT + 45, providers: [{}, {}], confirmations: 2 });
    // Blocks held: the batch is accepted and sent, nothing mined yet.
    await s.chain.intervalMining(0);
    const batch = await s.submit(10);
    for (const p of s.proxies) p.set({ dead: true });
    await s.chain.intervalMining(1);
    await s.app.app.get(ChainHealthService).checkAll();
    const listed = await s.app.http().get('/api/supported-chains').expect(200);
    expect(listed.body.data.map((c: { id: number }) => c.id)).not.toContain(31443);
    // Replacements and receipt reads meet no provider for 8 s: the rows wait.
    await new Promise((r) => setTimeout(r, 8000));
    const [{ failed }] = await s.db.query(`SELECT count(*) FILTER (WHERE status = 'FAILED')::int AS failed FROM relay_transactions WHERE id = ANY($1)`, [batch.txIds]);
    expect(failed).toBe(0);
    for (const p of s.proxies) p.set({ dead: false });
    await s.app.app.get(ChainHealthService).checkAll();
    const back = await s.app.http().get('/api/supported-chains').expect(200);
    expect(back.body.data.map((c: { id: number }) => c.id)).toContain(31443);
    await s.drain(batch, 90_000);
    await expectClean(s, batch);
  }, 240_000);
});
