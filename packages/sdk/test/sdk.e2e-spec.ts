import { createHmac } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { Wallet, type HDNodeWallet } from 'ethers';
import { mintCall, randomAddress, testChain, token } from '../../../test/support/chain-fixtures';
import { adminAuth, createAccount, createTestApp, TestApp } from '../../../test/support/test-app';
import { WebhookReceiver } from '../../../test/support/webhook-receiver';
import { RelayApiError, RelayClient, RelayTimeoutError, subscribe, verifyWebhookSignature, type TxNotification } from '../src';
import { verifyWebhook, WebhookVerificationError } from '../src/server';

/** The SDK against the real API (the integration tier's chains, database and Redis) over HTTP and Socket.IO. */
describe('SDK against the local stack', () => {
  let t: TestApp;
  let baseUrl: string;
  let client: RelayClient;
  let owner: HDNodeWallet;
  const chain = testChain(31337);
  const usdc = token(chain, 'USDC');
  const mint = () => ({ chainId: 31337, to: usdc, callData: mintCall(randomAddress(), 1_000n), label: 'sdk-spec' });

  beforeAll(async () => {
    t = await createTestApp();
    await t.app.listen(0);
    baseUrl = `http://127.0.0.1:${(t.app.getHttpServer().address() as AddressInfo).port}`;
    owner = Wallet.createRandom();
    const res = await t.http().post('/admin/accounts').set(adminAuth).send({ address: owner.address, creditUsd: 100 }).expect(201);
    client = new RelayClient({ baseUrl, apiKey: res.body.data.apiKey });
  });
  afterAll(() => t.close());

  it('relay.submit then waitFor answers from the socket (polling parked at 60 s) and from polling alone', async () => {
    const { txId, estimatedCostUSD } = await client.relay.submit(mint());
    expect(estimatedCostUSD).toBeGreaterThan(0);
    const started = Date.now();
    const bySocket = await client.relay.waitFor(txId, { pollIntervalMs: 60_000, timeoutMs: 30_000 });
    expect(bySocket).toMatchObject({ id: txId, status: 'EXECUTED', executionTxHash: expect.stringMatching(/^0x[0-9a-f]{64}$/) });
    expect(Date.now() - started).toBeLessThan(30_000);

    const second = await client.relay.submit(mint());
    const byPolling = await client.relay.waitFor(second.txId, { socket: false, pollIntervalMs: 100, timeoutMs: 30_000 });
    expect(byPolling.status).toBe('EXECUTED');
  });

  it('waitFor with untilHash resolves once the hash exists; an impossible deadline is a RelayTimeoutError', async () => {
    const { txId } = await client.relay.submit(mint());
    const hashed = await client.relay.waitFor(txId, { untilHash: true, timeoutMs: 30_000 });
    expect(hashed.executionTxHash).toMatch(/^0x[0-9a-f]{64}$/);
    const late = await client.relay.submit(mint());
    await expect(client.relay.waitFor(late.txId, { timeoutMs: 1, socket: false })).rejects.toBeInstanceOf(RelayTimeoutError);
  });

  it('relay.submitSync returns the final record with its receipt; relay.quote prices without queueing', async () => {
    const record = await client.relay.submitSync({ tx: mint(), includeReceipt: true, timeoutMs: 30_000 });
    expect(record.status).toBe('EXECUTED');
    expect(record.receipt?.status).toBe(1);
    const quote = await client.relay.quote(mint());
    expect(quote.costUSD).toBeGreaterThan(0);
    expect(BigInt(quote.minBalanceRequired)).toBeGreaterThan(0n);
  });

  it('relay.list pages through the account’s transactions newest first', async () => {
    const first = await client.relay.list({ limit: 2, label: 'sdk-spec' });
    expect(first.items).toHaveLength(2);
    expect(first.nextCursor).toBe(first.items[1].id);
    const next = await client.relay.list({ limit: 2, label: 'sdk-spec', cursor: first.nextCursor ?? undefined });
    expect(next.items.map((r) => r.id)).not.toContain(first.items[0].id);
    expect(Date.parse(next.items[0].timestamp)).toBeLessThanOrEqual(Date.parse(first.items[1].timestamp));
    const executed = await client.relay.list({ status: 'EXECUTED', chainId: 31337 });
    expect(executed.items.every((r) => r.status === 'EXECUTED' && r.chainId === 31337)).toBe(true);
  });

  it('errors carry the status, the catalog code and the trace id, on both envelopes', async () => {
    const stranger = new RelayClient({ baseUrl, apiKey: 'not-a-key' });
    const refused = await stranger.relay.submit(mint()).catch((err: unknown) => err);
    expect(refused).toBeInstanceOf(RelayApiError);
    expect(refused).toMatchObject({ status: 401, code: 'AUTH_002', traceId: expect.any(String) });

    const bad = await client.swap.quote({ fromChain: 31337, toChain: 31337, fromToken: usdc, toToken: usdc, amount: '1.5', sender: owner.address }).catch((err: unknown) => err);
    expect(bad).toBeInstanceOf(RelayApiError);
    expect(bad).toMatchObject({ status: 400, code: 'VALIDATION_001', traceId: expect.any(String), body: { code: 400, data: null } });

    const missing = await client.relay.get('00000000-0000-4000-8000-000000000000').catch((err: unknown) => err);
    expect(missing).toMatchObject({ status: 404, code: 'TRANSACTION_003' });
  });

  it('auth.login signs the SIWE message and the JWT registers webhooks, lists transactions and opens the socket', async () => {
    const login = await client.auth.login(owner);
    expect(login.address.toLowerCase()).toBe(owner.address.toLowerCase());
    const asWallet = client.withCredentials({ jwt: login.token });
    const registered = await asWallet.webhooks.register([{ url: 'http://127.0.0.1:9/hook', authType: 'none', enabled: false }]);
    expect(registered.signingSecret).toMatch(/^whsec_/);
    expect((await asWallet.relay.list({ limit: 1 })).items).toHaveLength(1);

    const socket = asWallet.socket();
    const seen: TxNotification[] = [];
    socket.on('tx.status', (n) => seen.push(n));
    await new Promise<void>((resolve) => socket.on('connect', () => resolve()));
    await subscribe(socket, { all: true });
    const { txId } = await client.relay.submit(mint());
    await client.relay.waitFor(txId, { socket: false, pollIntervalMs: 100 });
    const deadline = Date.now() + 10_000;
    while (!seen.some((n) => n.txId === txId && n.status === 'EXECUTED') && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    socket.close();
    expect(seen.filter((n) => n.txId === txId).map((n) => n.status)).toEqual(['PENDING', 'EXECUTED']);
  });

  it('funding, deposits, audit and the ledger CSV of the caller\'s own account', async () => {
    const funding = await client.funding.funding();
    expect(funding.depositAddress).toMatch(/^0x[0-9a-f]{40}$/);
    expect(funding.chains.map((c) => c.chainId)).toContain(31337);
    expect((await client.funding.funding()).depositAddress).toBe(funding.depositAddress);
    expect(await client.deposits({ limit: 10 })).toEqual({ items: [], nextCursor: null });
    const audit = await client.audit({ from: new Date(Date.now() - 3_600_000) });
    expect(audit.items.length).toBeGreaterThan(0);
    expect(audit.items.every((i) => i.onChain === 'match' && i.costUSD === i.chargedUsd)).toBe(true);
    const csv = await client.funding.ledgerCsv();
    expect(csv.split('\r\n')[0]).toBe('time,kind,reference,amountUsd,balanceAfterUsd');
    const refused = await client.audit({ from: '2026-01-01T00:00:00Z', to: '2026-03-01T00:00:00Z' }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(RelayApiError);
    expect((refused as RelayApiError).code).toBe('VALIDATION_001');
    const anonymous = await new RelayClient({ baseUrl }).funding.ledgerCsv().catch((e: unknown) => e);
    expect((anonymous as RelayApiError).code).toBe('AUTH_001');
  });

  it('swap.tokens and swap.quote return typed catalog entries and routes', async () => {
    const tokens = await client.swap.tokens(31337);
    expect(tokens.map((x) => x.symbol)).toEqual(expect.arrayContaining(['USDC', 'WETH']));
    const routes = await client.swap.quote({ fromChain: 31337, toChain: 31337, fromToken: token(chain, 'WETH'), toToken: usdc, amount: '1000000000000000', sender: owner.address });
    expect(routes.length).toBeGreaterThan(0);
    expect(BigInt(routes[0].amountOut)).toBeGreaterThan(0n);
  });

  it('policies: create, list, get, update, usage, remove; a refusal is a RelayApiError TRANSACTION_010 with the reason first', async () => {
    const res = await t.http().post('/admin/accounts').set(adminAuth).send({ address: Wallet.createRandom().address, creditUsd: 20 }).expect(201);
    const team = new RelayClient({ baseUrl, apiKey: res.body.data.apiKey });
    const user = randomAddress();
    const policy = await team.policies.create({ name: 'sdk', perEndUser: { maxTxs: 1, windowSeconds: 600 } });
    expect(await team.policies.list()).toEqual([policy]);
    expect(await team.policies.get(policy.id)).toEqual(policy);
    const { txId } = await team.relay.submit({ ...mint(), endUser: user });
    expect((await team.relay.waitFor(txId, { timeoutMs: 30_000 })).policyId).toBe(policy.id);
    const refused = await team.relay.submit({ ...mint(), endUser: user }).catch((err: unknown) => err);
    expect(refused).toBeInstanceOf(RelayApiError);
    expect(refused).toMatchObject({ status: 403, code: 'TRANSACTION_010' });
    expect((refused as RelayApiError).message).toMatch(/^end_user_limit:/);
    const usage = await team.policies.usage(policy.id);
    expect(usage).toMatchObject({ txCount: 1, reservedUsd: 0, endUsers: [{ address: user.toLowerCase(), txCount: 1 }] });
    expect((await team.policies.update(policy.id, { enabled: false })).enabled).toBe(false);
    await team.policies.remove(policy.id);
    expect(await team.policies.list()).toEqual([]);
    expect(await team.webhooks.test()).toEqual([]);
  });

  it('verifyWebhookSignature accepts the Standard Webhooks signature and nothing else', () => {
    const secret = `whsec_${Buffer.from('0123456789abcdef0123456789abcdef').toString('base64')}`;
    const body = JSON.stringify({ event: 'tx.status', txId: 'x' });
    const timestamp = String(Math.floor(Date.now() / 1000));
    const sig = createHmac('sha256', Buffer.from(secret.slice(6), 'base64')).update(`msg_1.${timestamp}.${body}`).digest('base64');
    const headers = { 'webhook-id': 'msg_1', 'webhook-timestamp': timestamp, 'webhook-signature': `v1,bogus v1,${sig}` };
    expect(verifyWebhookSignature({ secret, headers, rawBody: body })).toBe(true);
    expect(verifyWebhookSignature({ secret, headers, rawBody: `${body} ` })).toBe(false);
    expect(verifyWebhookSignature({ secret, headers: { ...headers, 'webhook-id': 'msg_2' }, rawBody: body })).toBe(false);
    expect(verifyWebhookSignature({ secret, headers: { ...headers, 'webhook-timestamp': String(Number(timestamp) - 3600) }, rawBody: body })).toBe(false);
  });

  it('a real delivery of the service verifies with verifyWebhook (standardwebhooks) and with the earlier verifyWebhookSignature', async () => {
    const receiver = await WebhookReceiver.start();
    try {
      const account = await createAccount(t, 10);
      const team = new RelayClient({ baseUrl, apiKey: account.apiKey });
      const { signingSecret } = await team.webhooks.register([{ url: receiver.url(), authType: 'none', enabled: true }]);
      const { txId } = await team.relay.submit(mint());
      const calls = await receiver.waitFor((c) => c.some((call) => call.body.txId === txId && call.body.status === 'EXECUTED'), 30_000);
      const delivery = calls.find((call) => call.body.txId === txId && call.body.status === 'EXECUTED')!;
      const event = verifyWebhook(signingSecret!, delivery.raw, delivery.headers);
      expect(event).toMatchObject({ event: 'tx.status', txId, status: 'EXECUTED', userId: account.userId });
      expect(verifyWebhookSignature({ secret: signingSecret!, headers: delivery.headers, rawBody: delivery.raw })).toBe(true);
      // The body as received, byte for byte: a re-serialised body with other spacing does not verify.
      expect(() => verifyWebhook(signingSecret!, JSON.stringify(JSON.parse(delivery.raw), null, 1), delivery.headers)).toThrow(WebhookVerificationError);
    } finally {
      await receiver.close();
    }
  });
});
