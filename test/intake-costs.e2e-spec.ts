import Redis from 'ioredis';
import { Client } from 'pg';
import { DataSource } from 'typeorm';
import { currentTraceId } from '../src/common/trace/trace-context';
import { mintCall, randomAddress, testChain, token } from './support/chain-fixtures';
import { createAccount, createTestApp, TestApp } from './support/test-app';

type AnyFn = (...args: unknown[]) => unknown;

/**
 * What one accepted POST /api/submit-tx costs in round trips (issue 31): the PostgreSQL
 * statements and Redis commands the app sends on behalf of the request, told apart from
 * background work by the request's trace id (the async context they run in).
 */
describe('intake round trips per submission', () => {
  let t: TestApp;
  let db: DataSource;
  const usdc = token(testChain(31337), 'USDC');
  const byTrace = new Map<string, { sql: string[]; redis: string[] }>();
  const restore: Array<() => void> = [];

  const record = (kind: 'sql' | 'redis', text: string) => {
    const traceId = currentTraceId();
    const entry = traceId && byTrace.get(traceId);
    if (entry) entry[kind].push(text);
  };

  beforeAll(async () => {
    const pg = Client.prototype as unknown as { query: AnyFn };
    const query = pg.query;
    pg.query = function (this: object, ...args: unknown[]) {
      const q = args[0] as string | { name?: string; text?: string };
      record('sql', typeof q === 'string' ? q : `${q.name ? `[${q.name}] ` : ''}${q.text}`);
      return query.apply(this, args);
    };
    const redis = Redis.prototype as unknown as { sendCommand: AnyFn };
    const sendCommand = redis.sendCommand;
    redis.sendCommand = function (this: object, ...args: unknown[]) {
      record('redis', (args[0] as { name: string }).name);
      return sendCommand.apply(this, args);
    };
    restore.push(() => (pg.query = query), () => (redis.sendCommand = sendCommand));
    // API role: no worker takes the submissions (its statements would not carry the request's trace anyway).
    t = await createTestApp({ env: { APP_ROLE: 'api' } });
    db = t.app.get(DataSource);
  });
  afterAll(async () => {
    await t.close();
    for (const r of restore) r();
  });

  let traces = 0;
  async function submit(apiKey: string, body: object = { chainId: 31337, to: usdc, callData: mintCall(randomAddress()), label: 'costs' }) {
    const traceId = `intake-costs-${++traces}-${Date.now()}`;
    byTrace.set(traceId, { sql: [], redis: [] });
    const res = await t.http().post('/api/submit-tx').set('api-key', apiKey).set('X-Trace-Id', traceId).send(body);
    return { res, ...byTrace.get(traceId)! };
  }

  it('an accepted submission of an account without policies is ONE statement and three Redis commands', async () => {
    const { apiKey } = await createAccount(t, 100);
    // The first one reads the API key (then cached) and warms the chain's fee reads.
    const first = await submit(apiKey);
    expect(first.res.status).toBe(201);
    const { res, sql, redis } = await submit(apiKey);
    expect(res.status).toBe(201);
    // The reservation, the row and its status event in one statement; no read of the account's policies first.
    expect(sql).toHaveLength(1);
    // A named prepared statement, the same for every submission (its text holds no value): each connection plans it once.
    const [, name] = /^\[(s_[0-9a-f]{24})\] WITH reservation AS/.exec(sql[0]) ?? [];
    expect(name).toBeDefined();
    expect(first.sql.at(-1)).toBe(sql[0]);
    // The rate limit (one script), the send job (one BullMQ script), the status signal.
    expect([...redis].sort()).toEqual(['evalsha', 'evalsha', 'publish']);
  });

  it('a policy enabled just before the submission still decides it (the one statement refuses without it)', async () => {
    const { apiKey, userId } = await createAccount(t, 100);
    expect((await submit(apiKey)).res.status).toBe(201);
    // Only another target is covered: this submission is refused, nothing written.
    await t.http().post('/api/policies').set('api-key', apiKey).send({ name: 'other', targets: [{ address: randomAddress() }] }).expect(201);
    const refused = await submit(apiKey);
    expect(refused.res.status).toBe(403);
    expect(refused.res.body.error.code).toBe('TRANSACTION_010');
    const [{ n }] = await db.query('SELECT count(*)::int AS n FROM relay_transactions WHERE user_id = $1', [userId]);
    expect(n).toBe(1);
    // A policy that covers it: the transaction is counted on it.
    const { body } = await t.http().post('/api/policies').set('api-key', apiKey).send({ name: 'usdc', targets: [{ address: usdc }] }).expect(201);
    const accepted = await submit(apiKey);
    expect(accepted.res.status).toBe(201);
    const [row] = await db.query('SELECT policy_id FROM relay_transactions WHERE id = $1', [accepted.res.body.data.txId]);
    expect(row.policy_id).toBe(body.data.id);
  });
});
