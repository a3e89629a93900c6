import Redis from 'ioredis';
import { RedisSlotLedger } from '../src/modules/relay/pipeline/keys/slot-ledger';
import { devRelayerAddresses } from '../scripts/local-stack/dev-keys';
import { CONDITIONS_PORT, Scenario, startScenario } from './support/chain-conditions/scenario';
import { testEnv } from './support/test-env';

const BOUND = 4;
/** One key per region: every transaction of the default region goes to the same sender. */
const ONE_KEY = { RELAY_MAX_IN_FLIGHT_PER_KEY: String(BOUND), RELAYER_KEYS_PER_REGION: '1', RELAY_SLOT_WAIT_MS: '1000' };

/**
 * RELAY_MAX_IN_FLIGHT_PER_KEY across worker processes: the slots are leases in Redis, so two
 * workers together never hold more than the bound on a key (counted at the node by the proxy's
 * per-sender pending cap, set to the bound), and a SIGKILLed worker's slots come back when
 * their leases run out, without anything being mined.
 */
describe('in-flight bound per key across worker processes', () => {
  let s: Scenario | undefined;
  const env = testEnv();
  const redis = new Redis(env.REDIS_URL, { keyPrefix: `${env.REDIS_PREFIX}:` });
  const ledger = new RedisSlotLedger(redis);
  const sender = devRelayerAddresses(1, 1)[0];
  afterEach(async () => {
    await s?.stop();
    s = undefined;
  });
  afterAll(() => redis.quit());
  const clean = { doubled: 0, lost: 0, failedButExecuted: 0, pending: 0, ledgerDiff: 0n, chargeDiff: 0n };

  it(`two workers on one key: the node never sees more than ${BOUND} pending from it (no "txpool is full"), all EXECUTED`, async () => {
    const chainId = 31461;
    s = await startScenario({ name: 'bound-two-workers', chainId, basePort: CONDITIONS_PORT + 20, proxy: { pendingCap: BOUND }, confirmations: 1, workers: 2, env: ONE_KEY });
    await s.chain.intervalMining(2);
    const batch = await s.submit(24);
    let most = 0;
    const until = Date.now() + 90_000;
    while (Date.now() < until) {
      most = Math.max(most, await ledger.load(`${chainId}:${sender.toLowerCase()}`));
      const [{ n }] = await s.db.query(`SELECT count(*)::int AS n FROM relay_transactions WHERE id = ANY($1) AND status = 'PENDING'`, [batch.txIds]);
      if (n === 0) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    const tally = await s.tally(batch);
    if (process.env.TEST_LOGS) console.log('bound-two-workers', { most }, tally, s.proxy.stats);
    expect(tally).toMatchObject(clean);
    expect(tally.statuses).toEqual({ EXECUTED: 24 });
    // The node refused nothing: never more than the bound pending from the key, both workers together.
    expect(s.proxy.stats.refusedPendingCap).toBe(0);
    // And the shared ledger was full at some point (the bound was reached, not merely unused).
    expect(most).toBe(BOUND);
  }, 180_000);

  it("a SIGKILLed worker's slots come back within seconds, with nothing mined meanwhile", async () => {
    const chainId = 31462;
    s = await startScenario({ name: 'bound-killed', chainId, basePort: CONDITIONS_PORT + 22, confirmations: 1, workers: 1, env: ONE_KEY });
    const key = `${chainId}:${sender.toLowerCase()}`;
    // Nothing is mined: the worker's transactions stay in flight and hold their slots.
    await s.chain.automine(false);
    const block = await s.chain.blockNumber();
    const batch = await s.submit(8);
    const until = Date.now() + 30_000;
    while (Date.now() < until && (await ledger.load(key)) < BOUND) await new Promise((r) => setTimeout(r, 50));
    expect(await ledger.load(key)).toBe(BOUND);
    s.workers[0].kill('SIGKILL');
    const killedAt = Date.now();
    while (Date.now() - killedAt < 15_000 && (await ledger.load(key)) > 0) await new Promise((r) => setTimeout(r, 100));
    const back = Date.now() - killedAt;
    expect(await ledger.load(key)).toBe(0);
    expect(back).toBeLessThan(8_000);
    expect(await s.chain.blockNumber()).toBe(block);
    // A new worker takes over: everything is mined once the chain moves again.
    await s.startWorker();
    await s.chain.intervalMining(1);
    await s.drain(batch, 60_000);
    const tally = await s.tally(batch);
    expect(tally).toMatchObject(clean);
    expect(tally.statuses).toEqual({ EXECUTED: 8 });
  }, 180_000);
});
