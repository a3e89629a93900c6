import { Batch, CONDITIONS_PORT, Scenario, startScenario, Tally } from './support/chain-conditions/scenario';

/**
 * Chain conditions, part 4: a reorg of the blocks holding settled relayed transactions, the
 * dropped transactions re-included by the new blocks (as a node re-injecting them into its pool
 * would), in other blocks. The same signed bytes come back, so nothing runs twice and every row
 * stays EXECUTED; the pipeline does not re-settle after a reorg, so the charge keeps the first
 * receipt's price (docs/decisions.md, "At most once under real chain conditions").
 */
describe('chain conditions: reorg of settled transactions', () => {
  let s: Scenario;
  let batch: Batch;
  let tally: Tally;

  beforeAll(async () => {
    s = await startScenario({ name: 'reorg', chainId: 31431, basePort: CONDITIONS_PORT + 14, confirmations: 2 });
    await s.chain.intervalMining(1);
    batch = await s.submit(20);
    await s.drain(batch, 40_000);
    const hashes: string[] = (await s.db.query(`SELECT execution_tx_hash FROM relay_transactions WHERE id = ANY($1)`, [batch.txIds])).map(
      (r: { execution_tx_hash: string }) => r.execution_tx_hash,
    );
    await s.chain.intervalMining(0);
    const mined = await Promise.all(
      hashes.map(async (hash) => {
        const receipt = (await s.chain.rpc('eth_getTransactionReceipt', [hash])) as { blockNumber: string };
        const tx = (await s.chain.rpc('eth_getTransactionByHash', [hash])) as { from: string; nonce: string };
        const raw = (await s.chain.rpc('eth_getRawTransactionByHash', [hash])) as string;
        return { raw, block: Number(BigInt(receipt.blockNumber)), from: tx.from, nonce: BigInt(tx.nonce) };
      }),
    );
    const head = await s.chain.blockNumber();
    const depth = head - Math.min(...mined.map((m) => m.block)) + 1;
    // Re-included in order (per sender by nonce), spread over the new blocks differently than before.
    const ordered = mined.sort((a, b) => (a.from === b.from ? Number(a.nonce - b.nonce) : a.from.localeCompare(b.from)));
    await s.chain.reorg(depth, ordered.map((m, i) => ({ raw: m.raw, offset: Math.min(depth - 1, Math.floor((i * depth) / ordered.length)) })));
    await s.chain.intervalMining(1);
    await new Promise((r) => setTimeout(r, 4_000));
    tally = await s.tally(batch);
    if (process.env.TEST_LOGS) console.log('reorg', { depth }, tally);
  }, 120_000);
  afterAll(() => s?.stop());

  it('nothing executed twice or lost, every row still EXECUTED, the ledger exact', () => {
    expect(tally).toMatchObject({ doubled: 0, lost: 0, failedButExecuted: 0, pending: 0, ledgerDiff: 0n });
    expect(tally.statuses).toEqual({ EXECUTED: 20 });
  });

  // Known gap: settlement is not redone when a reorg re-includes a transaction at another price.
  it.failing('charges what the re-included receipts cost', () => {
    expect(tally.chargeDiff).toBe(0n);
  });
});
