import { getQueueToken } from '@nestjs/bullmq';
import { Queue } from 'bullmq';
import Redis from 'ioredis';
import { DataSource } from 'typeorm';
import { QUEUES } from '../src/queue/queue-names';
import { mintCall, randomAddress, testChain, token, tokenContract } from './support/chain-fixtures';
import { adminAuth, createAccount, createTestApp, TestApp } from './support/test-app';
import { testEnv } from './support/test-env';
import { waitForTxs } from './support/wait-for-tx';

const BACKLOG = 100;
const MARK = 7n;

/**
 * Redis loses its data (FLUSHDB of this tier's db) while a backlog of send jobs waits: with no
 * restart and nobody calling reconcile() by hand, every transaction must still reach a final
 * state, once, with the ledger exact. Each transaction mints MARK units to its own fresh
 * recipient, so the chain itself says whether it ran 0, 1 or 2 times.
 */
describe('liveness: Redis flushed with a backlog of send jobs', () => {
  let t: TestApp;
  const chain = testChain(31337);
  const usdc = token(chain, 'USDC');

  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('drains the backlog with no restart: 0 lost, 0 executed twice, 0 pending, ledger exact', async () => {
    const { apiKey, address } = await createAccount(t, 1000);
    await t.http().patch(`/admin/accounts/${address}/limits`).set(adminAuth).send({ perTxLimit: 1000, dailyLimit: 100000 }).expect(200);
    const queue = t.app.get<Queue>(getQueueToken(QUEUES.relaySend));
    // Held sending: the accepted rows' jobs exist only in Redis when it is wiped.
    await queue.pause();
    const recipients = Array.from({ length: BACKLOG }, () => randomAddress());
    const ids: string[] = [];
    for (let i = 0; i < BACKLOG; i += 20) {
      const batch = recipients.slice(i, i + 20).map((to) => t.http().post('/api/submit-tx').set('api-key', apiKey).send({ chainId: 31337, to: usdc, callData: mintCall(to, MARK) }).expect(201));
      for (const res of await Promise.all(batch)) ids.push(res.body.data.txId);
    }
    const dataSource = t.app.get(DataSource);
    const [{ n: sentBefore }] = await dataSource.query('SELECT count(*)::int AS n FROM relay_broadcasts WHERE tx_id = ANY($1)', [ids]);
    expect(sentBefore).toBe(0);

    const redis = new Redis(testEnv().REDIS_URL);
    await redis.flushdb();
    await redis.quit();
    expect(await queue.getJobCounts('waiting', 'paused')).toEqual({ waiting: 0, paused: 0 });

    const rows = await waitForTxs(t, ids, { timeoutMs: 45_000 });
    const byStatus = (s: string) => rows.filter((r) => r.status === s).length;
    const usdcRead = tokenContract(chain, 'USDC');
    const minted = await Promise.all(recipients.map((r) => usdcRead.balanceOf(r) as Promise<bigint>));
    const runs = minted.map((m) => m / MARK);
    const report = {
      pending: byStatus('PENDING'),
      executed: byStatus('EXECUTED'),
      lost: rows.filter((r, i) => r.status === 'EXECUTED' && runs[i] === 0n).length,
      twice: runs.filter((n) => n > 1n).length,
      ranButNotExecuted: rows.filter((r, i) => r.status !== 'EXECUTED' && runs[i] > 0n).length,
    };
    expect(report).toEqual({ pending: 0, executed: BACKLOG, lost: 0, twice: 0, ranButNotExecuted: 0 });

    const [account] = await dataSource.query('SELECT id, available_micro::text AS available, pending_micro::text AS pending FROM accounts WHERE address = lower($1) OR address = $1', [address]);
    const [sums] = await dataSource.query('SELECT coalesce(sum(available_delta),0)::text AS available, coalesce(sum(pending_delta),0)::text AS pending FROM ledger_entries WHERE user_id = $1', [account.id]);
    expect(account.pending).toBe('0');
    expect({ available: account.available, pending: account.pending }).toEqual(sums);
  }, 120_000);
});
