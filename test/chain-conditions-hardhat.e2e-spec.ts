import { CONDITIONS_PORT, Scenario, startScenario } from './support/chain-conditions/scenario';

/**
 * The second node implementation: the relay flow, a lagging read node and a base-fee spike
 * against hardhat's node (EDR) instead of anvil, so the pipeline and the classifier of node
 * answers meet another client's messages (its "Nonce too low. Expected nonce to be…",
 * "Known transaction: 0x…", "Transaction maxFeePerGas (…) is too low for the next block…").
 * Counted from the chain, as the anvil scenarios.
 */
async function waitForSends(s: Scenario, n: number): Promise<void> {
  const until = Date.now() + 20_000;
  while (Date.now() < until && s.proxy.stats.sends < n) await new Promise((r) => setTimeout(r, 100));
}

describe('chain conditions on hardhat node', () => {
  let s: Scenario | undefined;
  afterEach(async () => {
    await s?.stop();
    s = undefined;
  });

  const clean = async (sc: Scenario, batch: Awaited<ReturnType<Scenario['submit']>>) => {
    const tally = await sc.tally(batch);
    if (process.env.TEST_LOGS) console.log(tally, sc.proxy.stats);
    expect(tally).toMatchObject({ doubled: 0, lost: 0, failedButExecuted: 0, pending: 0, ledgerDiff: 0n, chargeDiff: 0n });
    expect(tally.statuses).toEqual({ EXECUTED: batch.txIds.length });
  };

  it('relay flow: every accepted transaction executes once, charged exactly (automine)', async () => {
    s = await startScenario({ name: 'hardhat-flow', chainId: 31451, basePort: CONDITIONS_PORT + 50, node: 'hardhat' });
    expect(await s.chain.rpc('web3_clientVersion')).toMatch(/hardhat/i);
    const batch = await s.submit(20);
    await s.drain(batch, 60_000);
    await clean(s, batch);
  }, 180_000);

  it('a read node 3 s behind, 1 s blocks: nothing doubled, lost or stuck', async () => {
    s = await startScenario({ name: 'hardhat-lag', chainId: 31452, basePort: CONDITIONS_PORT + 55, node: 'hardhat', proxy: { lagMs: 3000 }, confirmations: 2 });
    await s.chain.intervalMining(1);
    const batch = await s.submit(20);
    await s.drain(batch, 90_000);
    await clean(s, batch);
    expect(s.proxy.stats.hiddenReceipts).toBeGreaterThan(0);
  }, 180_000);

  it('a base-fee spike (no reorg) triggering replacements: nothing doubled, lost or stuck', async () => {
    s = await startScenario({ name: 'hardhat-fees', chainId: 31453, basePort: CONDITIONS_PORT + 60, node: 'hardhat', proxy: { refuseUnderBaseFee: false }, confirmations: 2 });
    // Blocks held while the batch is sent; then the base fee jumps past what the sends pay.
    await s.chain.intervalMining(0);
    const batch = await s.submit(20);
    await waitForSends(s, batch.txIds.length);
    const base = (await s.chain.provider.getBlock('latest'))!.baseFeePerGas!;
    await s.chain.setNextBaseFee(base * 5n);
    await s.chain.intervalMining(1);
    await s.drain(batch, 90_000);
    await clean(s, batch);
    // The spike made the relay sign replacements (more signed transactions than rows).
    const [{ n }] = await s.db.query(`SELECT count(*)::int AS n FROM relay_broadcasts WHERE tx_id = ANY($1)`, [batch.txIds]);
    expect(n).toBeGreaterThan(batch.txIds.length);
  }, 180_000);
});
