import { CONDITIONS_PORT, Scenario, startScenario } from './support/chain-conditions/scenario';

/**
 * Chain conditions, part 2: a node refusing transactions priced under the base fee, a share of
 * failing, dropped and stalled calls, and congestion from a small block gas limit. Counted from
 * the chain: nothing lost, doubled or stuck, the ledger exact.
 */
describe('chain conditions: refusals, faults and congestion', () => {
  let s: Scenario | undefined;
  afterEach(async () => {
    await s?.stop();
    s = undefined;
  });
  const clean = { doubled: 0, lost: 0, failedButExecuted: 0, pending: 0, ledgerDiff: 0n, chargeDiff: 0n };

  it('a base-fee spike on a node that refuses transactions under the base fee: re-priced, none FAILED', async () => {
    // Fees are read from a node 2 s behind, so the submissions are priced for the old base fee.
    s = await startScenario({ name: 'basefee', chainId: 31411, basePort: CONDITIONS_PORT + 2, proxy: { lagMs: 2000, refuseUnderBaseFee: true }, confirmations: 2 });
    await s.chain.intervalMining(1);
    const base = (await s.chain.provider.getBlock('latest'))!.baseFeePerGas!;
    await s.chain.setNextBaseFee(base * 8n);
    await s.chain.mine(1);
    const batch = await s.submit(30);
    await s.drain(batch, 45_000);
    const tally = await s.tally(batch);
    if (process.env.TEST_LOGS) console.log('basefee', tally, s.proxy.stats);
    expect(tally).toMatchObject(clean);
    expect(tally.statuses).toEqual({ EXECUTED: 30 });
    expect(s.proxy.stats.refusedUnderBaseFee).toBeGreaterThan(0);
  }, 120_000);

  it('10% of calls failing, 5% dropped (sends reaching the node unanswered), 5% stalled 1.5 s', async () => {
    s = await startScenario({ name: 'faults', chainId: 31412, basePort: CONDITIONS_PORT + 4, confirmations: 2 });
    await s.chain.intervalMining(1);
    s.proxy.set({ errorShare: 0.1, dropShare: 0.05, stallShare: 0.05, stallMs: 1500, seed: 7 });
    const batch = await s.submitResilient(40);
    await s.drain(batch, 45_000);
    s.proxy.set({ errorShare: 0, dropShare: 0, stallShare: 0 });
    const tally = await s.tally(batch);
    if (process.env.TEST_LOGS) console.log('faults', tally, s.proxy.stats);
    expect(tally).toMatchObject(clean);
    expect(tally.statuses).toEqual({ EXECUTED: 40 });
    expect(s.proxy.stats.errored + s.proxy.stats.dropped).toBeGreaterThan(0);
  }, 120_000);

  it('congestion: 1 s blocks holding about three transactions each, base fee rising', async () => {
    s = await startScenario({ name: 'congestion', chainId: 31413, basePort: CONDITIONS_PORT + 6, confirmations: 2 });
    await s.chain.setBlockGasLimit(150_000n);
    await s.chain.intervalMining(1);
    const batch = await s.submit(30);
    await s.drain(batch, 50_000);
    const tally = await s.tally(batch);
    if (process.env.TEST_LOGS) console.log('congestion', tally, s.proxy.stats);
    expect(tally).toMatchObject(clean);
    expect(tally.statuses).toEqual({ EXECUTED: 30 });
  }, 120_000);
});
