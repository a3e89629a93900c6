import { DataSource } from 'typeorm';
import { CONDITIONS_PORT, Scenario, startScenario } from './support/chain-conditions/scenario';

/**
 * Chain conditions, part 3: more than one worker process, a worker SIGKILLed while it settles,
 * and a node that refuses a sender's transactions beyond a pending cap. Counted from the chain.
 */
describe('chain conditions: worker processes and back-pressure', () => {
  let s: Scenario | undefined;
  afterEach(async () => {
    await s?.stop();
    s = undefined;
  });
  const clean = { doubled: 0, lost: 0, failedButExecuted: 0, pending: 0, ledgerDiff: 0n, chargeDiff: 0n };

  it('a node refusing more than 4 pending transactions per sender ("txpool is full"): back-pressure, none FAILED', async () => {
    s = await startScenario({ name: 'pendingcap', chainId: 31421, basePort: CONDITIONS_PORT + 8, proxy: { pendingCap: 4 }, confirmations: 2 });
    await s.chain.intervalMining(1);
    const batch = await s.submit(30);
    await s.drain(batch, 50_000);
    const tally = await s.tally(batch);
    if (process.env.TEST_LOGS) console.log('pendingcap', tally, s.proxy.stats);
    expect(tally).toMatchObject(clean);
    expect(tally.statuses).toEqual({ EXECUTED: 30 });
    expect(s.proxy.stats.refusedPendingCap).toBeGreaterThan(0);
  }, 120_000);

  it('two worker processes on one backlog behind a lagging read node', async () => {
    s = await startScenario({ name: 'two-workers', chainId: 31422, basePort: CONDITIONS_PORT + 10, proxy: { lagMs: 1500 }, confirmations: 2, workers: 2 });
    await s.chain.intervalMining(1);
    const batch = await s.submit(40);
    await s.drain(batch, 50_000);
    const tally = await s.tally(batch);
    if (process.env.TEST_LOGS) console.log('two-workers', tally, s.proxy.stats);
    expect(tally).toMatchObject(clean);
    expect(tally.statuses).toEqual({ EXECUTED: 40 });
  }, 240_000);

  it('a worker SIGKILLed mid-settlement, another one started', async () => {
    s = await startScenario({ name: 'killed', chainId: 31423, basePort: CONDITIONS_PORT + 12, proxy: { lagMs: 1000 }, confirmations: 2, workers: 1 });
    await s.chain.intervalMining(1);
    const batch = await s.submit(30);
    // Kill once some are settled and some are still in flight.
    const db: DataSource = s.db;
    const until = Date.now() + 30_000;
    while (Date.now() < until) {
      const [{ n }] = await db.query(`SELECT count(*)::int AS n FROM relay_transactions WHERE id = ANY($1) AND status <> 'PENDING'`, [batch.txIds]);
      if (n > 0) break;
      await new Promise((r) => setTimeout(r, 20));
    }
    s.workers[0].kill('SIGKILL');
    const [{ pending }] = await db.query(`SELECT count(*)::int AS pending FROM relay_transactions WHERE id = ANY($1) AND status = 'PENDING'`, [batch.txIds]);
    await s.startWorker();
    await s.drain(batch, 60_000);
    const tally = await s.tally(batch);
    if (process.env.TEST_LOGS) console.log('killed', { pending }, tally, s.proxy.stats);
    expect(tally).toMatchObject(clean);
    expect(tally.statuses).toEqual({ EXECUTED: 30 });
    expect(pending).toBeGreaterThan(0);
  }, 240_000);
});
