import { randomUUID } from 'node:crypto';
import { Wallet } from 'ethers';
import Redis from 'ioredis';
import { DataSource } from 'typeorm';
import { adminAuth, createAccount, createTestApp, TestApp } from './support/test-app';
import { testEnv } from './support/test-env';

type Method = 'get' | 'post' | 'patch';
interface Probe {
  method: Method;
  path: string;
  query?: Record<string, string>;
  body?: unknown;
  envelope: 'code' | 'success';
}

const HASH = '0x' + 'ab'.repeat(32);
const USER = Wallet.createRandom().address;

/** The routes that had no limit before (issue 23), each with an input that reaches its handler. */
const PER_KEY: Probe[] = [
  { method: 'get', path: '/status', query: { txHash: HASH, fromChain: '31337' }, envelope: 'code' },
  { method: 'post', path: '/build-path-by-id', body: { quoteId: '0x' + '00'.repeat(32) }, envelope: 'code' },
  { method: 'get', path: '/tokens', query: { chain_id: '31337' }, envelope: 'code' },
  { method: 'get', path: '/search-token', query: { query: 'usd' }, envelope: 'code' },
  { method: 'get', path: '/gasless/status', query: { id: randomUUID() }, envelope: 'code' },
  { method: 'get', path: '/v1/positions', query: { userAddress: USER, chain: '31337' }, envelope: 'success' },
  { method: 'get', path: `/v1/orders/${randomUUID()}`, envelope: 'success' },
  { method: 'post', path: '/api/user/register-webhooks', body: [{ url: 'http://127.0.0.1:9/hook', authType: 'none' }], envelope: 'success' },
  { method: 'get', path: '/api/user/webhooks', envelope: 'success' },
  { method: 'post', path: '/api/user/webhooks/dead-letters/1/replay', envelope: 'success' },
  { method: 'get', path: '/api/txs', envelope: 'success' },
  { method: 'get', path: '/api/account', envelope: 'success' },
  { method: 'get', path: '/api/spend', envelope: 'success' },
];

function send(t: TestApp, probe: Probe, headers: Record<string, string>) {
  let req = t.http()[probe.method](probe.path);
  for (const [name, value] of Object.entries(headers)) req = req.set(name, value);
  if (probe.query) req = req.query(probe.query);
  return probe.body === undefined ? req : req.send(probe.body as object);
}

function expect429(res: { status: number; body: unknown; headers: Record<string, string> }, envelope: 'code' | 'success', what: string): void {
  expect({ what, status: res.status }).toEqual({ what, status: 429 });
  if (envelope === 'code') expect(res.body).toEqual({ code: 429, data: null, message: expect.stringMatching(/rate limit/) });
  else expect(res.body).toMatchObject({ success: false, error: { code: 'RESOURCE_003', category: 'RESOURCE' } });
  expect(Number(res.headers['retry-after'])).toBeGreaterThanOrEqual(1);
  expect(res.headers['ratelimit-remaining']).toBe('0');
}

/** The per-IP windows are shared by every spec run from 127.0.0.1 within a minute: start from empty ones. */
async function clearIpWindows(): Promise<void> {
  const env = testEnv();
  const redis = new Redis(env.REDIS_URL);
  try {
    const keys = await redis.keys(`${env.REDIS_PREFIX}:rate-limit:ip:*`);
    if (keys.length > 0) await redis.del(...keys);
  } finally {
    await redis.quit();
  }
}

describe('rate limits on every route that reaches RPC, DNS or the database', () => {
  describe('per key', () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await createTestApp();
    });
    afterAll(() => t.close());

    it.each(PER_KEY.map((p) => [`${p.method.toUpperCase()} ${p.path.replace(/[0-9a-f-]{36}/, '{id}')}`, p] as const))(
      "%s answers 429 in its path's envelope once its key's window is spent",
      async (name, probe) => {
        const { apiKey, userId } = await createAccount(t);
        await t.app.get(DataSource).query('UPDATE api_keys SET rate_limit_per_minute = 1 WHERE user_id = $1', [userId]);
        const first = await send(t, probe, { 'api-key': apiKey });
        expect({ name, status: first.status }).not.toEqual({ name, status: 429 });
        expect(first.headers['ratelimit-limit']).toBe('1');
        expect429(await send(t, probe, { 'api-key': apiKey }), probe.envelope, name);
      },
    );
  });

  describe('per IP: public reads', () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await createTestApp({ env: { PUBLIC_RATE_LIMIT_PER_MINUTE: '3' } });
      await clearIpWindows();
    });
    afterAll(() => t.close());

    it('public reads answer 429 per IP once the shared public window is spent, in the success envelope', async () => {
      const reads: Probe[] = [
        { method: 'get', path: '/api/tx', query: { id: randomUUID() }, envelope: 'success' },
        { method: 'get', path: '/api/user', query: { address: USER }, envelope: 'success' },
        { method: 'get', path: '/api/supported-chains', envelope: 'success' },
      ];
      for (const [i, probe] of reads.entries()) {
        const res = await send(t, probe, {});
        expect(res.status).not.toBe(429);
        expect(res.headers['ratelimit-remaining']).toBe(String(2 - i));
      }
      for (const probe of reads) expect429(await send(t, probe, {}), probe.envelope, probe.path);
      // Authenticated routes count per key, not in the IP's public window.
      const { apiKey } = await createAccount(t);
      await t.http().get('/api/account').set('api-key', apiKey).expect(200);
    });
  });

  describe('per IP: /admin', () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await createTestApp({ env: { ADMIN_RATE_LIMIT_PER_MINUTE: '3' } });
      await clearIpWindows();
    });
    afterAll(() => t.close());

    it('/admin answers 429 per IP, before the token is checked: wrong tokens spend the window too', async () => {
      await t.http().get('/admin/accounts').set('authorization', 'Bearer wrong-token-guess-0001').expect(401);
      await t.http().get('/admin/accounts').set('authorization', 'Bearer wrong-token-guess-0002').expect(401);
      const ok = await t.http().get('/admin/accounts').set(adminAuth).expect(200);
      expect(ok.headers['ratelimit-remaining']).toBe('0');
      // The window is spent: the right token is refused, and a guess no longer learns anything.
      expect429(await t.http().get('/admin/accounts').set(adminAuth), 'success', 'admin with token');
      expect429(await t.http().get('/admin/accounts').set('authorization', 'Bearer wrong-token-guess-0003'), 'success', 'admin guess');
      expect429(await t.http().post('/admin/accounts').set(adminAuth).send({ address: USER }), 'success', 'admin create');
      expect429(await t.http().get('/admin/audit').set(adminAuth), 'success', 'chain audit');
      // Public reads keep their own window.
      await t.http().get('/api/supported-chains').expect(200);
    });
  });
});
