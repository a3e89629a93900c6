import { execFile } from 'node:child_process';
import { createHmac, timingSafeEqual } from 'node:crypto';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { JwtService } from '@nestjs/jwt';
import { DataSource } from 'typeorm';
import { mintCall, randomAddress, testChain, token } from './support/chain-fixtures';
import { adminAuth, createAccount, createTestApp, TestApp } from './support/test-app';
import { TEST_JWT_SECRET, TEST_WEBHOOK_ENCRYPTION_KEY, testEnv } from './support/test-env';
import { waitForTx } from './support/wait-for-tx';
import { ReceivedCall, WebhookReceiver } from './support/webhook-receiver';

const ROOT = join(__dirname, '..');
const run = promisify(execFile);

/** The receiver's side of Standard Webhooks, written from the spec with node crypto only. */
function verifies(signingSecret: string, call: ReceivedCall): boolean {
  const key = Buffer.from(signingSecret.replace(/^whsec_/, ''), 'base64');
  const id = call.headers['webhook-id'] as string;
  const timestamp = call.headers['webhook-timestamp'] as string;
  const expected = createHmac('sha256', key).update(`${id}.${timestamp}.${call.raw}`).digest();
  const fresh = Math.abs(Date.now() / 1000 - Number(timestamp)) < 300;
  return (
    fresh &&
    String(call.headers['webhook-signature'])
      .split(' ')
      .some((sig) => {
        const [version, mac] = sig.split(',');
        const given = Buffer.from(mac ?? '', 'base64');
        return version === 'v1' && given.length === expected.length && timingSafeEqual(given, expected);
      })
  );
}

describe('webhooks', () => {
  let t: TestApp;
  let db: DataSource;
  const chain = testChain(31337);
  const usdc = token(chain, 'USDC');
  const register = (apiKey: string, body: unknown, query = '') => t.http().post(`/api/user/register-webhooks${query}`).set('api-key', apiKey).send(body as object);
  const submitMint = async (apiKey: string) =>
    (await t.http().post('/api/submit-tx').set('api-key', apiKey).send({ chainId: 31337, to: usdc, callData: mintCall(randomAddress()) }).expect(201)).body.data.txId as string;

  beforeAll(async () => {
    t = await createTestApp();
    db = t.app.get(DataSource);
  });
  afterAll(() => t.close());

  describe('registration', () => {
    const hook = { url: 'http://127.0.0.1:9/hook', authType: 'none' };

    it.each([
      ['a URL without http(s)', [{ ...hook, url: 'ftp://example.com/hook' }]],
      ['a URL that is not a URL', [{ ...hook, url: 'example.com/hook' }]],
      ['an unknown authType', [{ ...hook, authType: 'oauth' }]],
      ['bearer without secret', [{ ...hook, authType: 'bearer' }]],
      ['basic without secret', [{ ...hook, authType: 'basic' }]],
      ['api-key without secret', [{ ...hook, authType: 'api-key', apiKeyVar: 'X-Key' }]],
      ['an empty secret', [{ ...hook, authType: 'bearer', secret: '' }]],
      ['api-key without apiKeyVar', [{ ...hook, authType: 'api-key', secret: 's3cret' }]],
      ['an apiKeyVar that is no header name', [{ ...hook, authType: 'api-key', secret: 's3cret', apiKeyVar: 'X Key' }]],
      ['an apiKeyVar the service sets itself', [{ ...hook, authType: 'api-key', secret: 's3cret', apiKeyVar: 'Webhook-Signature' }]],
      ['basic whose secret is not user:password', [{ ...hook, authType: 'basic', secret: 'just-a-password' }]],
      ['an apiKeyPlacement other than header', [{ ...hook, authType: 'api-key', secret: 's', apiKeyVar: 'X-Key', apiKeyPlacement: 'query' }]],
      ['more than 20 webhooks', Array.from({ length: 21 }, (_, i) => ({ ...hook, url: `http://127.0.0.1:9/${i}` }))],
      ['one bad element among good ones', [hook, { ...hook, url: 'javascript:alert(1)' }]],
    ])('400 VALIDATION_001 for %s', async (_, body) => {
      const { apiKey } = await createAccount(t);
      const res = await register(apiKey, body).expect(400);
      expect(res.body).toEqual({
        success: false,
        error: { code: 'VALIDATION_001', message: expect.any(String), category: 'VALIDATION', traceId: expect.any(String) },
        timestamp: expect.any(String),
      });
    });

    it.each([
      ['an object instead of an array', hook],
      ['an element that is not an object', ['http://127.0.0.1:9/hook']],
      ['enabled that is not a boolean', [{ ...hook, enabled: 'yes' }]],
    ])('400 VALIDATION_004 for %s', async (_, body) => {
      const { apiKey } = await createAccount(t);
      expect((await register(apiKey, body).expect(400)).body.error.code).toBe('VALIDATION_004');
    });

    it('authenticates with the api-key header or a wallet-login JWT: AUTH_001, AUTH_002, AUTH_004, AUTH_005', async () => {
      const { userId, address } = await createAccount(t);
      const body = [hook];
      const none = await t.http().post('/api/user/register-webhooks').send(body).expect(401);
      expect(none.body.error.code).toBe('AUTH_001');
      const badKey = await t.http().post('/api/user/register-webhooks').set('api-key', 'rk_nope').send(body).expect(401);
      expect(badKey.body.error.code).toBe('AUTH_002');
      const now = Math.floor(Date.now() / 1000);
      const sign = (claims: object, secret = TEST_JWT_SECRET) => new JwtService().sign(claims, { secret, algorithm: 'HS256' });
      const claims = { sub: userId, address: address.toLowerCase(), aud: 'gas-relay' };
      const forged = await t.http().post('/api/user/register-webhooks').set('authorization', `Bearer ${sign({ ...claims, iat: now, exp: now + 600 }, 'another-secret-0123456789abcdef0123')}`).send(body).expect(401);
      expect(forged.body.error.code).toBe('AUTH_004');
      const expired = await t.http().post('/api/user/register-webhooks').set('authorization', `Bearer ${sign({ ...claims, iat: now - 7200, exp: now - 3600 })}`).send(body).expect(401);
      expect(expired.body.error.code).toBe('AUTH_005');
      const ok = await t.http().post('/api/user/register-webhooks').set('authorization', `Bearer ${sign({ ...claims, iat: now, exp: now + 600 })}`).send(body).expect(200);
      expect(ok.body).toMatchObject({ userId, address: address.toLowerCase(), webhooks: [{ url: hook.url, authType: 'none', enabled: true }] });
    });

    it('a wallet-login JWT makes only the first set: replacing a registered set or rotating the signing secret needs an API key (403 AUTH_007)', async () => {
      const { userId, address, apiKey } = await createAccount(t);
      const now = Math.floor(Date.now() / 1000);
      const bearer = { authorization: `Bearer ${new JwtService().sign({ sub: userId, address: address.toLowerCase(), aud: 'gas-relay', iat: now, exp: now + 600 }, { secret: TEST_JWT_SECRET, algorithm: 'HS256' })}` };
      const asSession = (body: unknown, query = '') => t.http().post(`/api/user/register-webhooks${query}`).set(bearer).send(body as object);
      const urls = async () => (await db.query(`SELECT url FROM webhooks WHERE user_id = $1 ORDER BY position`, [userId])).map((r: { url: string }) => r.url);
      const signingKey = async () => (await db.query(`SELECT * FROM webhook_signing_keys WHERE user_id = $1`, [userId]))[0];
      const refused = (res: { body: { error: { code: string; category: string } } }) => expect(res.body.error).toMatchObject({ code: 'AUTH_007', category: 'AUTH' });

      // Rotation is refused even when there is nothing yet: no key is issued to a session that way.
      refused(await asSession([hook], '?rotateSigningSecret=true').expect(403));
      expect(await signingKey()).toBeUndefined();
      expect(await urls()).toEqual([]);

      // The team's backend registers its set with the API key.
      const first = await register(apiKey, [{ url: 'http://127.0.0.1:9/team', authType: 'none' }]).expect(200);
      const key = await signingKey();
      expect(first.body.signingSecret).toMatch(/^whsec_/);

      // A session can neither replace it (not even with nothing) nor rotate its secret.
      for (const [body, query] of [[[{ url: 'http://127.0.0.1:9/elsewhere', authType: 'none' }], ''], [[], ''], [[hook], '?rotateSigningSecret=1']] as const) {
        const res = await asSession(body, query).expect(403);
        refused(res);
        expect(res.text).not.toContain('whsec_');
      }
      expect(await urls()).toEqual(['http://127.0.0.1:9/team']);
      expect(await signingKey()).toEqual(key);

      // The API key can do both.
      const rotated = await register(apiKey, [{ url: 'http://127.0.0.1:9/team2', authType: 'none' }], '?rotateSigningSecret=true').expect(200);
      expect(rotated.body.signingSecret).not.toBe(first.body.signingSecret);
      expect(await urls()).toEqual(['http://127.0.0.1:9/team2']);

      // With the set emptied by the API key there is nothing to replace: a session may register again (no secret returned).
      await register(apiKey, []).expect(200);
      const again = await asSession([hook]).expect(200);
      expect(again.body).toEqual({ userId, address: address.toLowerCase(), webhooks: [{ url: hook.url, authType: 'none', apiKeyPlacement: 'header', enabled: true }] });
    });

    it('answers a bare object without secrets, seals secrets at rest, and replaces the whole set atomically', async () => {
      const { apiKey, userId, address } = await createAccount(t);
      const first = [
        { url: 'http://127.0.0.1:9/a', authType: 'bearer', secret: 'bearer-secret-AAA' },
        { url: 'http://127.0.0.1:9/b', authType: 'api-key', secret: 'api-key-secret-BBB', apiKeyVar: 'X-Relay-Key', apiKeyPlacement: 'header', enabled: false },
        { url: 'https://127.0.0.1:9/c', authType: 'basic', secret: 'user:basic-secret-CCC' },
      ];
      const res = await register(apiKey, first).expect(200);
      expect(res.body).toEqual({
        userId,
        address: address.toLowerCase(),
        webhooks: [
          { url: 'http://127.0.0.1:9/a', authType: 'bearer', apiKeyPlacement: 'header', enabled: true },
          { url: 'http://127.0.0.1:9/b', authType: 'api-key', apiKeyVar: 'X-Relay-Key', apiKeyPlacement: 'header', enabled: false },
          { url: 'https://127.0.0.1:9/c', authType: 'basic', apiKeyPlacement: 'header', enabled: true },
        ],
        signingSecret: expect.stringMatching(/^whsec_[A-Za-z0-9+/]{32}$/),
      });
      expect(res.text).not.toMatch(/AAA|BBB|CCC/);
      const signingSecret: string = res.body.signingSecret;

      const stored = JSON.stringify(await db.query(`SELECT * FROM webhooks WHERE user_id = $1`, [userId]));
      const key = JSON.stringify(await db.query(`SELECT * FROM webhook_signing_keys WHERE user_id = $1`, [userId]));
      for (const plain of ['bearer-secret-AAA', 'api-key-secret-BBB', 'basic-secret-CCC', signingSecret, signingSecret.slice(6)]) {
        expect(stored).not.toContain(plain);
        expect(key).not.toContain(plain);
      }
      expect(stored).toContain('"secret_sealed":"v1:');
      expect(TEST_WEBHOOK_ENCRYPTION_KEY).toHaveLength(64);

      // A rejected registration leaves the previous set as it was.
      await register(apiKey, [{ url: 'http://127.0.0.1:9/only', authType: 'none' }, { url: 'http://127.0.0.1:9/x', authType: 'bearer' }]).expect(400);
      expect(await db.query(`SELECT url FROM webhooks WHERE user_id = $1 ORDER BY position`, [userId])).toEqual([
        { url: 'http://127.0.0.1:9/a' },
        { url: 'http://127.0.0.1:9/b' },
        { url: 'https://127.0.0.1:9/c' },
      ]);

      // Replacing: what is not sent is gone; an unchanged webhook keeps its identity; no new signing secret.
      const [before] = await db.query(`SELECT id FROM webhooks WHERE user_id = $1 AND url = 'http://127.0.0.1:9/a'`, [userId]);
      const second = await register(apiKey, [{ url: 'http://127.0.0.1:9/a', authType: 'bearer', secret: 'rotated-bearer' }]).expect(200);
      expect(second.body).toEqual({ userId, address: address.toLowerCase(), webhooks: [{ url: 'http://127.0.0.1:9/a', authType: 'bearer', apiKeyPlacement: 'header', enabled: true }] });
      expect(await db.query(`SELECT id FROM webhooks WHERE user_id = $1`, [userId])).toEqual([{ id: before.id }]);

      const rotated = await register(apiKey, [], '?rotateSigningSecret=true').expect(200);
      expect(rotated.body).toEqual({ userId, address: address.toLowerCase(), webhooks: [], signingSecret: expect.stringMatching(/^whsec_/) });
      expect(rotated.body.signingSecret).not.toBe(signingSecret);
      expect(await db.query(`SELECT id FROM webhooks WHERE user_id = $1`, [userId])).toEqual([]);

      const twenty = Array.from({ length: 20 }, (_, i) => ({ url: `http://127.0.0.1:9/${i}`, authType: 'none' }));
      expect((await register(apiKey, twenty).expect(200)).body.webhooks).toHaveLength(20);
    });
  });

  describe('delivery', () => {
    let receiver: WebhookReceiver;

    beforeEach(async () => {
      receiver = await WebhookReceiver.start();
    });
    afterEach(() => receiver.close());

    it('delivers PENDING then EXECUTED to every enabled webhook, in order, with its outbound auth and a valid signature', async () => {
      const { apiKey, userId } = await createAccount(t);
      const reg = await register(apiKey, [
        { url: receiver.url('/bearer'), authType: 'bearer', secret: 'tok-123' },
        { url: receiver.url('/basic'), authType: 'basic', secret: 'relay:pa:ss' },
        { url: receiver.url('/api-key'), authType: 'api-key', secret: 'key-456', apiKeyVar: 'X-Relay-Key' },
        { url: receiver.url('/none'), authType: 'none' },
        { url: receiver.url('/disabled'), authType: 'none', enabled: false },
      ]).expect(200);
      const signingSecret: string = reg.body.signingSecret;
      const txId = await submitMint(apiKey);
      const tx = await waitForTx(t, txId);
      expect(tx.status).toBe('EXECUTED');

      await receiver.waitFor((calls) => calls.filter((c) => c.body.status === 'EXECUTED').length === 4);
      await new Promise((r) => setTimeout(r, 300)); // anything extra (duplicates, the disabled one) would show up here
      const byPath = (path: string) => receiver.calls.filter((c) => c.path === path);
      expect(byPath('/disabled')).toHaveLength(0);
      expect(receiver.calls).toHaveLength(8);

      for (const path of ['/bearer', '/basic', '/api-key', '/none']) {
        const calls = byPath(path);
        expect(calls.map((c) => [c.body.status, c.body.previousStatus])).toEqual([
          ['PENDING', null],
          ['EXECUTED', 'PENDING'],
        ]);
        for (const call of calls) {
          expect(verifies(signingSecret, call)).toBe(true);
          expect(call.headers['content-type']).toBe('application/json');
          expect(call.headers['webhook-id']).toMatch(/^evt_\d+$/);
        }
        expect(calls[0].body).toEqual({
          event: 'tx.status',
          txId,
          userId,
          status: 'PENDING',
          previousStatus: null,
          chainId: 31337,
          executionTxHash: null,
          costUSD: null,
          nativePriceUsd: null,
          retries: 0,
          timestamp: expect.any(String),
          failureReason: null,
          revertReason: null,
          stages: { acceptedAt: (tx.stages as { acceptedAt: string }).acceptedAt, signedAt: null, broadcastAt: null, minedAt: null, settledAt: null },
          policyId: null,
        });
        expect(calls[1].body).toMatchObject({ txId, userId, status: 'EXECUTED', executionTxHash: tx.executionTxHash, costUSD: tx.costUSD, nativePriceUsd: tx.nativePriceUsd, failureReason: null, revertReason: null, stages: tx.stages });
      }
      expect(byPath('/bearer')[0].headers.authorization).toBe('Bearer tok-123');
      expect(byPath('/basic')[0].headers.authorization).toBe(`Basic ${Buffer.from('relay:pa:ss').toString('base64')}`);
      expect(byPath('/api-key')[0].headers['x-relay-key']).toBe('key-456');
      expect(byPath('/api-key')[0].headers.authorization).toBeUndefined();
      expect(byPath('/none')[0].headers.authorization).toBeUndefined();
      // One id per event, shared by every webhook it goes to.
      expect(new Set(receiver.calls.filter((c) => c.body.status === 'PENDING').map((c) => c.headers['webhook-id'])).size).toBe(1);
      // A signature over other bytes or with another secret does not verify.
      const first = byPath('/bearer')[0];
      expect(verifies(signingSecret, { ...first, raw: first.raw.replace('PENDING', 'EXECUTED') })).toBe(false);
      expect(verifies('whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw', first)).toBe(false);

      const metrics = await t.http().get('/metrics').expect(200);
      expect(metrics.text).toMatch(/webhook_deliveries_total\{outcome="delivered"\} \d+/);
      expect(metrics.text).toMatch(/webhook_delivery_attempt_duration_seconds_count\{result="success"\} \d+/);
    });

    it('retries a failing receiver and delivers the event exactly once more, keeping the transaction’s order', async () => {
      const { apiKey } = await createAccount(t);
      const reg = await register(apiKey, [{ url: receiver.url('/flaky'), authType: 'none' }]).expect(200);
      let txId = '';
      // The second failure is answered only once the transaction has EXECUTED, so that event is
      // certainly waiting behind the open PENDING delivery.
      receiver.reply = async (_, index) => {
        if (index === 1) await waitForTx(t, txId);
        return index < 2 ? 503 : 200;
      };
      txId = await submitMint(apiKey);
      await receiver.waitFor((calls) => calls.some((c) => c.body.status === 'EXECUTED' && c.status === 200));
      await new Promise((r) => setTimeout(r, 500));

      expect(receiver.calls.map((c) => [c.body.status, c.status])).toEqual([
        ['PENDING', 503],
        ['PENDING', 503],
        ['PENDING', 200],
        ['EXECUTED', 200],
      ]);
      expect(new Set(receiver.calls.slice(0, 3).map((c) => c.headers['webhook-id'])).size).toBe(1);
      expect(receiver.calls.every((c) => verifies(reg.body.signingSecret, c))).toBe(true);
      const rows = await db.query(`SELECT status, attempts, last_status_code FROM webhook_deliveries WHERE tx_id = $1 ORDER BY event_id`, [txId]);
      expect(rows).toEqual([
        { status: 'delivered', attempts: 3, last_status_code: 200 },
        { status: 'delivered', attempts: 1, last_status_code: 200 },
      ]);
    });

    it('dead-letters a dead receiver after the retries; the operator lists and replays (CLI and REST) once it is back', async () => {
      const { apiKey, address } = await createAccount(t);
      const port = receiver.port;
      await receiver.close(); // nothing listens on the registered port now
      await register(apiKey, [{ url: `http://127.0.0.1:${port}/dead`, authType: 'bearer', secret: 'dead-secret' }]).expect(200);
      const txId = await submitMint(apiKey);
      expect((await waitForTx(t, txId)).status).toBe('EXECUTED');

      // 1 + 6 attempts each (the test schedule is 100..350 ms), PENDING first, then EXECUTED.
      let letters: Array<Record<string, unknown>> = [];
      const deadline = Date.now() + 20_000;
      while (letters.length < 2 && Date.now() < deadline) {
        await new Promise((r) => setTimeout(r, 200));
        letters = (await t.http().get('/admin/webhooks/dead-letters').query({ address }).set(adminAuth).expect(200)).body.data;
      }
      expect(letters).toEqual([
        expect.objectContaining({ txId, txStatus: 'EXECUTED', attempts: 7, url: `http://127.0.0.1:${port}/dead`, lastStatusCode: null, lastError: expect.stringMatching(/ECONNREFUSED/) }),
        expect.objectContaining({ txId, txStatus: 'PENDING', attempts: 7 }),
      ]);
      expect(JSON.stringify(letters)).not.toContain('dead-secret');

      receiver = await WebhookReceiver.start(port);
      const [executed, pending] = letters;
      const cli = await run(join(ROOT, 'node_modules/.bin/ts-node'), ['--transpile-only', 'src/cli/admin.ts', 'webhooks', 'replay', '--id', String(pending.id), '--json'], {
        cwd: ROOT,
        env: { ...process.env, ...testEnv() },
      });
      expect(JSON.parse(cli.stdout)).toEqual({ id: pending.id, status: 'pending' });
      await receiver.waitFor((calls) => calls.length === 1);
      expect(receiver.calls[0].body).toMatchObject({ txId, status: 'PENDING' });
      expect(receiver.calls[0].headers.authorization).toBe('Bearer dead-secret');

      const rest = await t.http().post(`/admin/webhooks/dead-letters/${executed.id}/replay`).set(adminAuth).expect(200);
      expect(rest.body.data).toEqual({ id: executed.id, status: 'pending' });
      await receiver.waitFor((calls) => calls.length === 2);
      await new Promise((r) => setTimeout(r, 300));
      expect(receiver.calls.map((c) => c.body.status)).toEqual(['PENDING', 'EXECUTED']);
      expect((await t.http().get('/admin/webhooks/dead-letters').query({ address }).set(adminAuth).expect(200)).body.data).toEqual([]);

      // Replaying what is not a dead letter (any more) is a 404.
      expect((await t.http().post(`/admin/webhooks/dead-letters/${executed.id}/replay`).set(adminAuth).expect(404)).body.error.code).toBe('RESOURCE_001');
      expect((await t.http().post(`/admin/webhooks/dead-letters/abc/replay`).set(adminAuth).expect(400)).body.error.code).toBe('VALIDATION_004');
      expect((await t.http().get('/admin/webhooks/dead-letters').expect(401)).body.error.code).toBe('AUTH_001');
    });

    it('turns events committed while no worker ran into deliveries (the outbox is the record, not the signal)', async () => {
      const { apiKey, userId } = await createAccount(t);
      await register(apiKey, [{ url: receiver.url('/late'), authType: 'none' }]).expect(200);
      const txId = await submitMint(apiKey);
      await waitForTx(t, txId);
      await receiver.waitFor((calls) => calls.length === 2);
      // An event whose Redis signal never went out (a publisher that crashed after commit) still arrives via the sweep.
      const [event] = await db.query(
        `INSERT INTO tx_status_events (tx_id, user_id, status, previous_status, payload) SELECT tx_id, user_id, status, previous_status, payload || '{"retries": 9}'::jsonb FROM tx_status_events WHERE tx_id = $1 ORDER BY id DESC LIMIT 1 RETURNING id`,
        [txId],
      );
      await receiver.waitFor((calls) => calls.length === 3, 5_000);
      expect(receiver.calls[2].body).toMatchObject({ txId, userId, retries: 9 });
      expect(receiver.calls[2].headers['webhook-id']).toBe(`evt_${event.id}`);
    });
  });
});
