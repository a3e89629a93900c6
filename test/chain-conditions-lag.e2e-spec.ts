import { CONDITIONS_PORT, Scenario, startScenario } from './support/chain-conditions/scenario';

/**
 * Chain conditions, part 1: a read node that trails the write node, and a base-fee spike that
 * makes the relay replace transactions whose receipts it cannot see yet. Counted from the chain.
 */
async function waitForSends(s: Scenario, n: number): Promise<void> {
  const until = Date.now() + 20_000;
  while (Date.now() < until && s.proxy.stats.sends < n) await new Promise((r) => setTimeout(r, 100));
}

describe('chain conditions: lagging reads and base-fee spikes', () => {
  let s: Scenario | undefined;
  afterEach(async () => {
    await s?.stop();
    s = undefined;
  });

  it('a read node 3 s behind + a base-fee spike triggering replacements: nothing doubled, lost or stuck', async () => {
    s = await startScenario({ name: 'lag', chainId: 31401, basePort: CONDITIONS_PORT, proxy: { lagMs: 3000 }, confirmations: 2 });
    // Blocks held while the batch is accepted and sent; then the base fee jumps past what the
    // first sends pay, so they wait while replacements go out on reads that cannot see them mined.
    await s.chain.intervalMining(0);
    const batch = await s.submit(40);
    await waitForSends(s, batch.txIds.length);
    const base = (await s.chain.provider.getBlock('latest'))!.baseFeePerGas!;
    await s.chain.setNextBaseFee(base * 5n);
    await s.chain.intervalMining(1);
    await s.drain(batch, 50_000);
    const tally = await s.tally(batch);
    if (process.env.TEST_LOGS) console.log('lag', tally, s.proxy.stats);
    expect(tally).toMatchObject({ doubled: 0, lost: 0, failedButExecuted: 0, pending: 0, ledgerDiff: 0n, chargeDiff: 0n });
    expect(s.proxy.stats.hiddenReceipts).toBeGreaterThan(0);
  }, 120_000);
});
