import { createHmac, timingSafeEqual } from 'node:crypto';
import { JwtService } from '@nestjs/jwt';
import { mintCall, randomAddress, testChain, token } from './support/chain-fixtures';
import { adminAuth, createAccount, createTestApp, TestApp } from './support/test-app';
import { TEST_JWT_SECRET } from './support/test-env';
import { waitForTx } from './support/wait-for-tx';
import { ReceivedCall, WebhookReceiver } from './support/webhook-receiver';

/** The receiver's side of Standard Webhooks (node crypto only). */
function verifies(signingSecret: string, call: ReceivedCall): boolean {
  const key = Buffer.from(signingSecret.replace(/^whsec_/, ''), 'base64');
  const expected = createHmac('sha256', key).update(`${call.headers['webhook-id']}.${call.headers['webhook-timestamp']}.${call.raw}`).digest();
  return String(call.headers['webhook-signature'])
    .split(' ')
    .some((sig) => {
      const [version, mac] = sig.split(',');
      const given = Buffer.from(mac ?? '', 'base64');
      return version === 'v1' && given.length === expected.length && timingSafeEqual(given, expected);
    });
}

/** Webhook registrations' `events` filter and POST /api/webhooks/test (extensions.md). */
describe('webhooks: event filters and test-send', () => {
  let t: TestApp;
  let receiver: WebhookReceiver;
  const usdc = token(testChain(31337), 'USDC');
  const register = (apiKey: string, body: unknown) => t.http().post('/api/user/register-webhooks').set('api-key', apiKey).send(body as object);

  beforeAll(async () => {
    t = await createTestApp();
    receiver = await WebhookReceiver.start();
  });
  afterAll(async () => {
    await receiver.close();
    await t.close();
  });

  it.each([
    ['an unknown event', ['tx.status', 'tx.mined']],
    ['events that are not a list', 'tx.status'],
  ])('refuses %s with 400 VALIDATION_001', async (_name, events) => {
    const { apiKey } = await createAccount(t);
    const res = await register(apiKey, [{ url: receiver.url('/x'), authType: 'none', events }]).expect(400);
    expect(res.body.error.code).toBe('VALIDATION_001');
  });

  it('each webhook gets only the events it names; without events, all of them', async () => {
    const { apiKey, userId, address } = await createAccount(t, 20);
    const registered = await register(apiKey, [
      { url: receiver.url(`/tx/${userId}`), authType: 'none', events: ['tx.status'] },
      { url: receiver.url(`/low/${userId}`), authType: 'none', events: ['account.low_balance', 'account.deposit'] },
      { url: receiver.url(`/all/${userId}`), authType: 'none' },
    ]).expect(200);
    expect(registered.body.webhooks.map((w: { events?: string[] }) => w.events)).toEqual([['tx.status'], ['account.low_balance', 'account.deposit'], undefined]);
    const overview = await t.http().get('/api/user/webhooks').set('api-key', apiKey).expect(200);
    expect(overview.body.data.webhooks.map((w: { events?: string[] }) => w.events)).toEqual([['tx.status'], ['account.low_balance', 'account.deposit'], undefined]);
    // Below the threshold from the first reservation on: one account.low_balance event.
    await t.http().patch(`/admin/accounts/${address}/limits`).set(adminAuth).send({ lowBalanceThresholdUsd: 19.99999 }).expect(200);
    const txId = (await t.http().post('/api/submit-tx').set('api-key', apiKey).send({ chainId: 31337, to: usdc, callData: mintCall(randomAddress()) }).expect(201)).body.data.txId;
    await waitForTx(t, txId, { status: 'EXECUTED' });
    const of = (path: string) => receiver.calls.filter((c) => c.path === `/${path}/${userId}`).map((c) => c.body.event);
    await receiver.waitFor(() => of('all').filter((e) => e === 'tx.status').length >= 2 && of('all').includes('account.low_balance') && of('tx').length >= 2 && of('low').length >= 1);
    // Give a wrongly routed delivery time to arrive before asserting it did not.
    await new Promise((r) => setTimeout(r, 1_500));
    expect(of('tx')).toEqual(['tx.status', 'tx.status']);
    expect(of('low')).toEqual(['account.low_balance']);
    expect([...of('all')].sort()).toEqual(['account.low_balance', 'tx.status', 'tx.status']);
  });

  it('POST /api/webhooks/test sends a signed webhook.test to each enabled webhook and answers per webhook', async () => {
    const { apiKey, userId, address } = await createAccount(t);
    receiver.reply = (call) => (call.path.startsWith(`/fail/${userId}`) ? 503 : 200);
    const registered = await register(apiKey, [
      { url: receiver.url(`/ok/${userId}`), authType: 'bearer', secret: 'tok-1', events: ['account.deposit'] },
      { url: receiver.url(`/fail/${userId}`), authType: 'none' },
      { url: receiver.url(`/off/${userId}`), authType: 'none', enabled: false },
      // Nothing listens there: refused connection.
      { url: 'http://127.0.0.1:9/closed', authType: 'none' },
    ]).expect(200);
    const signingSecret = registered.body.signingSecret as string;
    const before = Date.now();
    const res = await t.http().post('/api/webhooks/test').set('api-key', apiKey).expect(200);
    expect(res.body.success).toBe(true);
    expect(res.body.data).toEqual([
      { url: receiver.url(`/ok/${userId}`), status: 200, ms: expect.any(Number) },
      { url: receiver.url(`/fail/${userId}`), status: 503, ms: expect.any(Number), error: 'HTTP 503' },
      { url: 'http://127.0.0.1:9/closed', status: null, ms: expect.any(Number), error: expect.any(String) },
    ]);
    const calls = receiver.calls.filter((c) => c.path.endsWith(`/${userId}`));
    expect(calls.map((c) => c.path).sort()).toEqual([`/fail/${userId}`, `/ok/${userId}`]);
    for (const call of calls) {
      expect(call.body).toEqual({ event: 'webhook.test', userId, timestamp: expect.any(String) });
      expect(Date.parse(call.body.timestamp as string)).toBeGreaterThanOrEqual(before - 1000);
      expect(verifies(signingSecret, call)).toBe(true);
    }
    expect(calls.find((c) => c.path.startsWith('/ok'))!.headers.authorization).toBe('Bearer tok-1');
    receiver.reply = () => 200;

    // The account's wallet JWT may test too; no credential may not; an account without webhooks gets an empty list.
    const now = Math.floor(Date.now() / 1000);
    const jwt = new JwtService().sign({ sub: userId, address: address.toLowerCase(), aud: 'gas-relay', iat: now, exp: now + 600 }, { secret: TEST_JWT_SECRET, algorithm: 'HS256' });
    expect((await t.http().post('/api/webhooks/test').set('authorization', `Bearer ${jwt}`).expect(200)).body.data).toHaveLength(3);
    await t.http().post('/api/webhooks/test').expect(401);
    const lonely = await createAccount(t);
    expect((await t.http().post('/api/webhooks/test').set('api-key', lonely.apiKey).expect(200)).body.data).toEqual([]);
  });

  it('the test-send keeps to the SSRF guard: with private targets refused, a registered private URL gets no request', async () => {
    const { apiKey, userId } = await createAccount(t);
    await register(apiKey, [{ url: receiver.url(`/private/${userId}`), authType: 'none' }]).expect(200);
    const strict = await createTestApp({ env: { WEBHOOK_ALLOW_PRIVATE: 'false' } });
    try {
      const res = await strict.http().post('/api/webhooks/test').set('api-key', apiKey).expect(200);
      expect(res.body.data).toEqual([{ url: receiver.url(`/private/${userId}`), status: null, ms: expect.any(Number), error: 'refused: address not allowed' }]);
      await new Promise((r) => setTimeout(r, 300));
      expect(receiver.calls.filter((c) => c.path === `/private/${userId}`)).toEqual([]);
    } finally {
      await strict.close();
    }
  });
});
