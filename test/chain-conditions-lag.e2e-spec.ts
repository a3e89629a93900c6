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

  // 1 s and 2 s blocks: at 2 s a replacement's wait for its block is longer than the read lag's gap.
  it.each([
    { blockSeconds: 1, chainId: 31401, basePort: CONDITIONS_PORT },
    { blockSeconds: 2, chainId: 31402, basePort: CONDITIONS_PORT + 18 },
  ])('a read node 3 s behind + a base-fee spike triggering replacements, $blockSeconds s blocks: nothing doubled, lost or stuck', async ({ blockSeconds, chainId, basePort }) => {
    s = await startScenario({ name: `lag-${blockSeconds}s`, chainId, basePort, proxy: { lagMs: 3000 }, confirmations: 2 });
    // Blocks held while the batch is accepted and sent; then the base fee jumps past what the
    // first sends pay, so they wait while replacements go out on reads that cannot see them mined.
    await s.chain.intervalMining(0);
    const batch = await s.submit(40);
    await waitForSends(s, batch.txIds.length);
    const base = (await s.chain.provider.getBlock('latest'))!.baseFeePerGas!;
    await s.chain.setNextBaseFee(base * 5n);
    await s.chain.intervalMining(blockSeconds);
    await s.drain(batch, 50_000 * blockSeconds);
    const tally = await s.tally(batch);
    if (process.env.TEST_LOGS) console.log(`lag ${blockSeconds}s`, tally, s.proxy.stats);
    expect(tally).toMatchObject({ doubled: 0, lost: 0, failedButExecuted: 0, pending: 0, ledgerDiff: 0n, chargeDiff: 0n });
    expect(s.proxy.stats.hiddenReceipts).toBeGreaterThan(0);
  }, 180_000);
});
