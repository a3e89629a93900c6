import { DataSource } from 'typeorm';
import { CONDITIONS_PORT, Scenario, startScenario } from './support/chain-conditions/scenario';
import { RedisCluster, startRedisCluster } from './support/redis-cluster';

/**
 * Each scenario runs with the queues on the app's Redis and again on a 3-master Redis Cluster
 * (QUEUE_REDIS_CLUSTER_NODES, the worker processes too); chain ids and ports differ per run, as
 * a chain id's nonce counters outlive its anvil.
 */
const RUNS = [
  { queues: 'one Redis', cluster: false, pendingcap: { chainId: 31421, basePort: CONDITIONS_PORT + 8 }, twoWorkers: { chainId: 31422, basePort: CONDITIONS_PORT + 10 }, killed: { chainId: 31423, basePort: CONDITIONS_PORT + 12 } },
  { queues: 'a 3-master Redis Cluster', cluster: true, pendingcap: { chainId: 31480, basePort: CONDITIONS_PORT + 24 }, twoWorkers: { chainId: 31481, basePort: CONDITIONS_PORT + 26 }, killed: { chainId: 31482, basePort: CONDITIONS_PORT + 28 } },
];

/**
 * Chain conditions, part 3: more than one worker process, a worker SIGKILLed while it settles,
 * and a node that refuses a sender's transactions beyond a pending cap. Counted from the chain.
 */
describe.each(RUNS)('chain conditions: worker processes and back-pressure (queues on $queues)', (run) => {
  let s: Scenario | undefined;
  let cluster: RedisCluster | undefined;
  beforeAll(async () => {
    if (run.cluster) cluster = await startRedisCluster();
  }, 60_000);
  afterAll(() => cluster?.stop());
  const env = () => ({ ...cluster?.env });
  afterEach(async () => {
    await s?.stop();
    s = undefined;
  });
  const clean = { doubled: 0, lost: 0, failedButExecuted: 0, pending: 0, ledgerDiff: 0n, chargeDiff: 0n };

  it('a node refusing more than 4 pending transactions per sender ("txpool is full"): back-pressure, none FAILED', async () => {
    s = await startScenario({ name: 'pendingcap', ...run.pendingcap, proxy: { pendingCap: 4 }, confirmations: 2, env: env() });
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
    s = await startScenario({ name: 'two-workers', ...run.twoWorkers, proxy: { lagMs: 1500 }, confirmations: 2, workers: 2, env: env() });
    await s.chain.intervalMining(1);
    const batch = await s.submit(40);
    await s.drain(batch, 50_000);
    const tally = await s.tally(batch);
    if (process.env.TEST_LOGS) console.log('two-workers', tally, s.proxy.stats);
    expect(tally).toMatchObject(clean);
    expect(tally.statuses).toEqual({ EXECUTED: 40 });
  }, 240_000);

  it('a worker SIGKILLed mid-settlement, another one started', async () => {
    s = await startScenario({ name: 'killed', ...run.killed, proxy: { lagMs: 1000 }, confirmations: 2, workers: 1, env: env() });
    await s.chain.intervalMining(1);
    // Kill once some are settled and some are still in flight. Two waves: the receipts of one
    // block settle in one statement, so a single wave mined in one block would be all settled
    // or none; the second wave is accepted after the first settled and cannot be mined yet.
    const first = await s.submit(15);
    const db: DataSource = s.db;
    const until = Date.now() + 30_000;
    while (Date.now() < until) {
      const [{ n }] = await db.query(`SELECT count(*)::int AS n FROM relay_transactions WHERE id = ANY($1) AND status <> 'PENDING'`, [first.txIds]);
      if (n > 0) break;
      await new Promise((r) => setTimeout(r, 20));
    }
    const second = await s.submit(15);
    const batch = { txIds: [...first.txIds, ...second.txIds], marks: [...first.marks, ...second.marks] };
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
