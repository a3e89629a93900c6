import { AddressInfo } from 'node:net';
import { parseEther, Wallet } from 'ethers';
import { io, Socket } from 'socket.io-client';
import { DataSource } from 'typeorm';
import { verifySignature } from '../src/modules/webhooks/signing/standard-webhooks';
import { erc20, mintCall, randomAddress, testChain, token } from './support/chain-fixtures';
import { adminAuth, createAccount, createTestApp, TestApp } from './support/test-app';
import { waitForTx } from './support/wait-for-tx';
import { WebhookReceiver } from './support/webhook-receiver';

const APPROVAL_SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';

describe('account policy (extensions.md, "Account policy")', () => {
  let t: TestApp;
  let db: DataSource;
  const chain = testChain(31337);
  const usdc = token(chain, 'USDC');
  const dai = token(chain, 'DAI');
  const mintSelector = erc20.getFunction('mint')!.selector;
  const transferCall = erc20.encodeFunctionData('transfer', [randomAddress(), 1n]);

  beforeAll(async () => {
    t = await createTestApp({ env: { APPROVAL_TIMEOUT_MS: '600' } });
    db = t.app.get(DataSource);
  });
  afterAll(() => t.close());

  const limits = (address: string, body: object) => t.http().patch(`/admin/accounts/${address}/limits`).set(adminAuth).send(body);
  const quote = (apiKey: string, tx: object = { chainId: 31337, to: usdc, callData: mintCall(randomAddress()) }) => t.http().post('/api/quote').set('api-key', apiKey).send(tx);

  /** A refusal must leave nothing behind: no transaction row, no ledger entry beyond the opening credit, the whole balance available. */
  async function expectNothingReserved(userId: string, creditUsd: number): Promise<void> {
    const [{ n }] = await db.query('SELECT count(*)::int AS n FROM relay_transactions WHERE user_id = $1', [userId]);
    expect(n).toBe(0);
    const entries = await db.query('SELECT id FROM ledger_entries WHERE user_id = $1', [userId]);
    expect(entries).toHaveLength(1);
    const [account] = await db.query('SELECT available_micro::text AS available, pending_micro::text AS pending FROM accounts WHERE id = $1', [userId]);
    expect(account).toEqual({ available: String(creditUsd * 1_000_000), pending: '0' });
  }

  describe('admin PATCH /admin/accounts/{address}/limits', () => {
    it("sets every policy field, a partial body changes only what it names, GET /api/user shows them to the account's own key (never the secret)", async () => {
      const { address, apiKey } = await createAccount(t, 10);
      const set = await limits(address, {
        ipWhitelist: ['10.0.0.0/8', '2001:DB8::/32', '127.0.0.1'],
        domainWhitelist: ['App.Example.com', '*.example.org'],
        allowedTargets: [{ chainId: 31337, address: usdc, selectors: ['0x40C10F19'] }, { address: dai }],
        lowBalanceThresholdUsd: 2.5,
        approvalWebhook: { url: 'https://approver.example.com/hook', secret: APPROVAL_SECRET },
      }).expect(200);
      const expected = {
        ipWhitelist: ['10.0.0.0/8', '2001:db8::/32', '127.0.0.1'],
        domainWhitelist: ['app.example.com', '*.example.org'],
        allowedTargets: [{ chainId: 31337, address: usdc.toLowerCase(), selectors: ['0x40c10f19'] }, { address: dai.toLowerCase() }],
        lowBalanceThresholdUsd: 2.5,
        approvalWebhook: { url: 'https://approver.example.com/hook', enabled: true },
      };
      expect(set.body.data.userConfig).toMatchObject(expected);
      expect(JSON.stringify(set.body)).not.toContain('whsec_');

      // Partial: only dailyLimit changes.
      const partial = await limits(address, { dailyLimit: 50 }).expect(200);
      expect(partial.body.data.userConfig).toMatchObject({ ...expected, dailyLimit: 50 });
      const user = await t.http().get(`/api/user?address=${address}`).set('api-key', apiKey).expect(200);
      expect(user.body.data.userConfig).toMatchObject({ ...expected, dailyLimit: 50 });
      expect(JSON.stringify(user.body)).not.toContain('whsec_');

      // The secret is sealed at rest.
      const [row] = await db.query('SELECT approval_webhook_secret_sealed AS sealed FROM accounts WHERE address = $1', [address.toLowerCase()]);
      expect(row.sealed).toMatch(/^v1:/);
      expect(row.sealed).not.toContain(APPROVAL_SECRET.slice(6));

      // enabled alone switches it; null removes it; empty lists and null threshold clear.
      expect((await limits(address, { approvalWebhook: { enabled: false } }).expect(200)).body.data.userConfig.approvalWebhook).toEqual({ url: 'https://approver.example.com/hook', enabled: false });
      const cleared = await limits(address, { approvalWebhook: null, ipWhitelist: [], domainWhitelist: [], allowedTargets: [], lowBalanceThresholdUsd: null }).expect(200);
      expect(cleared.body.data.userConfig).toMatchObject({ approvalWebhook: null, ipWhitelist: [], domainWhitelist: [], allowedTargets: [], lowBalanceThresholdUsd: null, dailyLimit: 50 });
    });

    it.each([
      ['an IP that is no IP', { ipWhitelist: ['300.1.1.1'] }],
      ['a CIDR with too many bits', { ipWhitelist: ['10.0.0.0/33'] }],
      ['a host name with a space', { domainWhitelist: ['bad domain.com'] }],
      ['a bare wildcard', { domainWhitelist: ['*'] }],
      ['a target that is no address', { allowedTargets: [{ address: '0x1234' }] }],
      ['a selector of 3 bytes', { allowedTargets: [{ address: '0x5FbDB2315678afecb367f032d93F642f64180aa3', selectors: ['0x123456'] }] }],
      ['a target chain id of 0', { allowedTargets: [{ chainId: 0, address: '0x5FbDB2315678afecb367f032d93F642f64180aa3' }] }],
      ['a negative threshold', { lowBalanceThresholdUsd: -1 }],
      ['an approval url that is not http(s)', { approvalWebhook: { url: 'ftp://x.example.com', secret: APPROVAL_SECRET } }],
      ['an approval secret that is not whsec_', { approvalWebhook: { url: 'https://x.example.com', secret: 'plain' } }],
      ['an approval url without its secret', { approvalWebhook: { url: 'https://x.example.com' } }],
      ['an empty approval webhook', { approvalWebhook: {} }],
      ['enabled alone without a configured webhook', { approvalWebhook: { enabled: true } }],
    ])('refuses %s with 400 VALIDATION_001 and changes nothing', async (_name, body) => {
      const { address, apiKey } = await createAccount(t, 10);
      await limits(address, { ipWhitelist: ['127.0.0.1', '::1'] }).expect(200);
      const res = await limits(address, { ...body, dailyLimit: 7 }).expect(400);
      expect(res.body.error).toMatchObject({ code: 'VALIDATION_001' });
      const after = await t.http().get(`/api/user?address=${address}`).set('api-key', apiKey).expect(200);
      expect(after.body.data.userConfig).toMatchObject({ ipWhitelist: ['127.0.0.1', '::1'], approvalWebhook: null, lowBalanceThresholdUsd: null });
      expect(after.body.data.userConfig.dailyLimit).not.toBe(7);
    });

    it('sets a key rate limit by REST; an unknown key id is 404 RESOURCE_001', async () => {
      const { address, apiKey } = await createAccount(t, 10);
      const keys = await t.app.get(DataSource).query('SELECT k.id FROM api_keys k JOIN accounts a ON a.id = k.user_id WHERE a.address = $1', [address.toLowerCase()]);
      await quote(apiKey).expect(201);
      await t.http().patch(`/admin/keys/${keys[0].id}/rate-limit`).set(adminAuth).send({ rateLimitPerMinute: 2 }).expect(200);
      // At once, despite the cached key: the third request of the minute is over the new limit.
      await quote(apiKey).expect(201);
      const limited = await quote(apiKey).expect(429);
      expect(limited.body.error.code).toBe('RESOURCE_003');
      await t.http().patch(`/admin/keys/${keys[0].id}/rate-limit`).set(adminAuth).send({ rateLimitPerMinute: null }).expect(200);
      await quote(apiKey).expect(201);
      const unknown = await t.http().patch('/admin/keys/00000000-0000-4000-8000-000000000000/rate-limit').set(adminAuth).send({ rateLimitPerMinute: 5 }).expect(404);
      expect(unknown.body.error.code).toBe('RESOURCE_001');
      await t.http().patch(`/admin/keys/${keys[0].id}/rate-limit`).set(adminAuth).send({ rateLimitPerMinute: 0 }).expect(400);
    });
  });

  describe('ipWhitelist (403 AUTH_003)', () => {
    it('refuses a loopback client when the list lacks it, takes effect at once, allows it by address or CIDR', async () => {
      const { address, apiKey, userId } = await createAccount(t, 10);
      await quote(apiKey).expect(201); // the key is now cached
      await limits(address, { ipWhitelist: ['10.0.0.0/8', '2001:db8::/32'] }).expect(200);
      const refused = await quote(apiKey).expect(403);
      expect(refused.body.error).toMatchObject({ code: 'AUTH_003', category: 'AUTH' });
      expect(refused.body.error.message).toMatch(/ipWhitelist/);
      // Every api-key request of the account, not only submissions.
      await t.http().get('/api/txs').set('api-key', apiKey).expect(403);
      // Without TRUST_PROXY a client cannot pick its own address.
      await limits(address, { ipWhitelist: ['203.0.113.7'] }).expect(200);
      await quote(apiKey).set('X-Forwarded-For', '203.0.113.7').expect(403);
      const submit = await t.http().post('/api/submit-tx').set('api-key', apiKey).send({ chainId: 31337, to: usdc, callData: mintCall(randomAddress()) }).expect(403);
      expect(submit.body.error.code).toBe('AUTH_003');
      await expectNothingReserved(userId, 10);

      await limits(address, { ipWhitelist: ['10.0.0.0/8', '127.0.0.1', '::1'] }).expect(200);
      await quote(apiKey).expect(201);
      await limits(address, { ipWhitelist: ['127.0.0.0/8', '::1/128'] }).expect(200);
      await quote(apiKey).expect(201);
      await limits(address, { ipWhitelist: [] }).expect(200);
      await quote(apiKey).expect(201);
    });
  });

  describe('domainWhitelist (403 AUTH_003 for requests with an Origin)', () => {
    it('allows listed hosts and wildcard subdomains, refuses others, ignores requests without Origin', async () => {
      const { address, apiKey } = await createAccount(t, 10);
      await limits(address, { domainWhitelist: ['app.example.com', '*.example.org'] }).expect(200);
      await quote(apiKey).set('Origin', 'https://app.example.com').expect(201);
      await quote(apiKey).set('Origin', 'http://app.example.com:8080').expect(201);
      await quote(apiKey).set('Origin', 'https://a.b.example.org').expect(201);
      await quote(apiKey).expect(201);
      for (const origin of ['https://evil.example.net', 'https://example.org', 'https://app.example.com.evil.net', 'null']) {
        const res = await quote(apiKey).set('Origin', origin).expect(403);
        expect(res.body.error.code).toBe('AUTH_003');
        expect(res.body.error.message).toMatch(/domainWhitelist/);
      }
    });
  });

  describe('allowedTargets (403 TRANSACTION_007)', () => {
    it('allows a listed target and selector on quote, submit-tx and submit-tx-sync; refuses other targets, selectors and chains with nothing reserved', async () => {
      const { address, apiKey, userId } = await createAccount(t, 10);
      await limits(address, { allowedTargets: [{ chainId: 31337, address: usdc, selectors: [mintSelector] }, { chainId: 84532, address: dai }] }).expect(200);
      const refusals: Array<[string, object]> = [
        ['/api/quote', { chainId: 31337, to: usdc, callData: transferCall }],
        ['/api/quote', { chainId: 31337, to: dai, callData: mintCall(randomAddress()) }],
        ['/api/submit-tx', { chainId: 31337, to: usdc, callData: transferCall }],
        ['/api/submit-tx', { chainId: 31337, to: dai, callData: mintCall(randomAddress()) }],
        ['/api/submit-tx', { chainId: 31337, to: usdc, callData: '0x' }],
        ['/api/submit-tx-sync', { tx: { chainId: 31337, to: dai, callData: mintCall(randomAddress()) }, timeoutMs: 5000 }],
      ];
      for (const [path, body] of refusals) {
        const res = await t.http().post(path).set('api-key', apiKey).send(body).expect(403);
        expect(res.body.error).toMatchObject({ code: 'TRANSACTION_007', category: 'TRANSACTION' });
      }
      await expectNothingReserved(userId, 10);

      await quote(apiKey, { chainId: 31337, to: usdc.toLowerCase(), callData: mintCall(randomAddress()) }).expect(201);
      const sync = await t.http().post('/api/submit-tx-sync').set('api-key', apiKey).send({ tx: { chainId: 31337, to: usdc, callData: mintCall(randomAddress()) }, timeoutMs: 15000 }).expect(200);
      expect(sync.body.data.status).toBe('EXECUTED');
    });

    it('applies to submit-signed-tx (to + selector of the signed bytes)', async () => {
      const { address, apiKey, userId } = await createAccount(t, 10);
      await limits(address, { allowedTargets: [{ address: usdc, selectors: [mintSelector] }] }).expect(200);
      const user = Wallet.createRandom();
      const signedTx = await user.signTransaction({
        type: 2, chainId: 31337, nonce: 0, to: dai, data: mintCall(user.address), value: 0n, gasLimit: 100_000n, maxFeePerGas: 2_000_000_000n, maxPriorityFeePerGas: 1_000_000n,
      });
      const res = await t.http().post('/api/submit-signed-tx').set('api-key', apiKey).send({ chainId: 31337, signedTx }).expect(403);
      expect(res.body.error.code).toBe('TRANSACTION_007');
      await expectNothingReserved(userId, 10);
    });
  });

  describe('approval webhook (403 TRANSACTION_008)', () => {
    let receiver: WebhookReceiver;
    beforeAll(async () => {
      receiver = await WebhookReceiver.start();
    });
    afterAll(() => receiver.close());

    it('asks the webhook with a signed sponsorship.request; approve lets it through, deny, timeout and error refuse it with nothing reserved', async () => {
      const { address, apiKey, userId } = await createAccount(t, 10);
      await limits(address, { approvalWebhook: { url: receiver.url('/approve'), secret: APPROVAL_SECRET } }).expect(200);
      const data = mintCall(randomAddress());
      const submit = () => t.http().post('/api/submit-tx').set('api-key', apiKey).send({ chainId: 31337, to: usdc, callData: data, label: 'approve-me' });

      receiver.reply = () => ({ status: 200, body: { approve: false, reason: 'over budget' } });
      const denied = await submit().expect(403);
      expect(denied.body.error.code).toBe('TRANSACTION_008');
      expect(denied.body.error.message).toMatch(/denied/);
      expect(denied.body.error.message).toMatch(/over budget/);

      receiver.reply = () => new Promise((resolve) => setTimeout(() => resolve({ status: 200, body: { approve: true } }), 1500));
      const timedOut = await submit().expect(403);
      expect(timedOut.body.error.code).toBe('TRANSACTION_008');
      expect(timedOut.body.error.message).toMatch(/timeout/);

      receiver.reply = () => 500;
      const failed = await submit().expect(403);
      expect(failed.body.error.message).toMatch(/\(error\)/);
      receiver.reply = () => 200; // 2xx without {"approve": true}
      expect((await submit().expect(403)).body.error.code).toBe('TRANSACTION_008');
      await expectNothingReserved(userId, 10);

      receiver.reply = () => ({ status: 200, body: { approve: true } });
      const accepted = await submit().expect(201);
      const call = receiver.calls[receiver.calls.length - 1];
      expect(call.path).toBe('/approve');
      const [row] = await db.query('SELECT gas_limit::text AS gas, max_fee_per_gas::text AS fee, max_priority_fee_per_gas::text AS tip FROM relay_transactions WHERE id = $1', [accepted.body.data.txId]);
      expect(call.body).toEqual({
        event: 'sponsorship.request', userId, chainId: 31337, to: usdc.toLowerCase(), callData: data, value: '0', label: 'approve-me', derivationPath: null,
        estimatedCostUSD: accepted.body.data.estimatedCostUSD,
        authorizationList: null, gasLimit: row.gas, maxFeePerGas: row.fee, maxPriorityFeePerGas: row.tip, gasPrice: null,
      });
      const headers = { 'webhook-id': String(call.headers['webhook-id']), 'webhook-timestamp': String(call.headers['webhook-timestamp']), 'webhook-signature': String(call.headers['webhook-signature']) };
      expect(verifySignature(APPROVAL_SECRET, headers, call.raw)).toBe(true);
      expect((await waitForTx(t, accepted.body.data.txId)).status).toBe('EXECUTED');

      // Switched off: no call at all.
      await limits(address, { approvalWebhook: { enabled: false } }).expect(200);
      const before = receiver.calls.length;
      receiver.reply = () => 500;
      await submit().expect(201);
      expect(receiver.calls.length).toBe(before);
    });
  });

  describe('low balance (account.low_balance)', () => {
    let receiver: WebhookReceiver;
    let socket: Socket | undefined;
    beforeAll(async () => {
      receiver = await WebhookReceiver.start();
      await t.app.listen(0);
    });
    afterAll(async () => {
      socket?.disconnect();
      await receiver.close();
    });

    it('goes once to webhooks and the socket when the balance falls below the threshold, again only after it rose above it', async () => {
      const { address, apiKey, userId } = await createAccount(t, 20);
      await t.http().post('/api/user/register-webhooks').set('api-key', apiKey).send([{ url: receiver.url('/events'), authType: 'none' }]).expect(200);
      const url = `http://127.0.0.1:${(t.app.getHttpServer().address() as AddressInfo).port}`;
      socket = io(`${url}/tx`, { path: '/socket.io', auth: { apiKey }, transports: ['websocket'], reconnection: false, forceNew: true });
      const pushed: Array<Record<string, unknown>> = [];
      socket.on('account.low_balance', (e: Record<string, unknown>) => pushed.push(e));
      expect(await socket.timeout(10_000).emitWithAck('subscribe', { all: true })).toEqual({ ok: true });
      await limits(address, { lowBalanceThresholdUsd: 10, perTxLimit: 100 }).expect(200);

      // USD per wei of value, from a quote: send value worth about 12 USD, then about 6.
      const recipient = randomAddress();
      const probe = await quote(apiKey, { chainId: 31337, to: recipient, callData: '0x', value: parseEther('0.01').toString() }).expect(201);
      const weiFor = (usd: number) => (parseEther('0.01') * BigInt(Math.round(usd * 1000))) / BigInt(Math.round(probe.body.data.costUSD * 1000));
      const send = async (usd: number) => {
        const res = await t.http().post('/api/submit-tx-sync').set('api-key', apiKey).send({ tx: { chainId: 31337, to: recipient, callData: '0x', value: weiFor(usd).toString() }, timeoutMs: 15000 }).expect(200);
        expect(res.body.data.status).toBe('EXECUTED');
      };
      const lowEvents = () => receiver.calls.filter((c) => c.body.event === 'account.low_balance');

      await send(12); // 20 → ~8: below 10
      await receiver.waitFor(() => lowEvents().length === 1);
      await send(0.5); // still below: nothing new
      await t.http().post(`/admin/accounts/${address}/credit`).set(adminAuth).send({ usd: 5 }).expect(200); // ~12.5: above, re-armed, no event
      await send(6); // ~6.5: below again
      await receiver.waitFor(() => lowEvents().length === 2);
      await new Promise((r) => setTimeout(r, 1000));
      expect(lowEvents()).toHaveLength(2);
      const [first, second] = lowEvents().map((c) => c.body);
      expect(first).toEqual({ event: 'account.low_balance', userId, availableBalance: expect.any(Number), threshold: 10, timestamp: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/) });
      expect(first.availableBalance as number).toBeLessThan(10);
      expect(second.availableBalance as number).toBeLessThan(10);
      expect(pushed).toHaveLength(2);
      expect(pushed[0]).toEqual(first);
      const [{ n }] = await db.query("SELECT count(*)::int AS n FROM tx_status_events WHERE user_id = $1 AND status = 'low_balance' AND tx_id IS NULL", [userId]);
      expect(n).toBe(2);
    });
  });
});
