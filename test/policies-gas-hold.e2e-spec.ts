import { io, Socket } from 'socket.io-client';
import { AddressInfo } from 'node:net';
import { DataSource } from 'typeorm';
import { mintCall, provider, randomAddress, testChain, token } from './support/chain-fixtures';
import { createAccount, createTestApp, TestApp } from './support/test-app';
import { waitForTx, waitForTxs } from './support/wait-for-tx';
import { WebhookReceiver } from './support/webhook-receiver';

const GWEI = 1_000_000_000n;

/**
 * `maxGasPriceGwei` (extensions.md): an accepted transaction waits unsigned while the chain's
 * fee is above its policy's cap, holding no nonce, so the same relayer key keeps sending other
 * transactions; it is sent once the fee falls, or FAILED `expired` at its validUntil. One
 * region with one key, so "the same key" is certain. Chain 84532 only (its base fee is moved).
 */
describe('sponsorship policies: gas-price hold', () => {
  let t: TestApp;
  let db: DataSource;
  const chain = testChain(84532);
  const usdc = token(chain, 'USDC');
  const rpc = provider(chain);

  /** The next block's base fee, and a block mined so the latest block shows it. */
  const setBaseFee = async (wei: bigint) => {
    await rpc.send('anvil_setNextBlockBaseFeePerGas', [`0x${wei.toString(16)}`]);
    await rpc.send('evm_mine', []);
    // The estimates' fee cache (RELAY_FEE_CACHE_MS) sees the new base fee.
    await new Promise((r) => setTimeout(r, 1_100));
  };

  beforeAll(async () => {
    t = await createTestApp({ env: { RELAY_REGIONS: 'us-east', RELAYER_KEYS_PER_REGION: '1' } });
    db = t.app.get(DataSource);
  });
  afterAll(async () => {
    await setBaseFee(GWEI);
    await t.close();
  });

  const submit = (apiKey: string, extra: object = {}) => t.http().post('/api/submit-tx').set('api-key', apiKey).send({ chainId: 84532, to: usdc, callData: mintCall(randomAddress()), ...extra });
  const row = async (id: string) => (await db.query('SELECT stage, nonce::text AS nonce, sender, max_gas_price_wei::text AS cap, valid_until FROM relay_transactions WHERE id = $1', [id]))[0];

  it('a held transaction takes no nonce while the same key sends others, and is sent when a base-fee drop brings the fee under its cap', async () => {
    const team = await createAccount(t, 500);
    const others = await createAccount(t, 500);
    await t.http().post('/api/policies').set('api-key', team.apiKey).send({ name: 'cheap gas only', chainIds: [84532], maxGasPriceGwei: 5 }).expect(201);
    await setBaseFee(40n * GWEI);

    const acceptedAt = Date.now();
    const held = (await submit(team.apiKey, { endUser: randomAddress() }).expect(201)).body.data.txId as string;
    const heldRow = await row(held);
    expect(heldRow.cap).toBe((5n * GWEI).toString());
    // No validUntil given: 600 s after acceptance.
    expect(Math.abs(new Date(heldRow.valid_until).getTime() - (acceptedAt + 600_000))).toBeLessThan(5_000);

    // Other transactions of the same (only) key flow while it waits; each mined block lowers the base fee a little, not under 5 gwei.
    const flowing: string[] = [];
    for (let i = 0; i < 3; i++) flowing.push((await submit(others.apiKey).expect(201)).body.data.txId);
    const done = await waitForTxs(t, flowing, { status: 'EXECUTED', timeoutMs: 30_000 });
    expect(done.map((d) => d.status)).toEqual(['EXECUTED', 'EXECUTED', 'EXECUTED']);
    const sent = await Promise.all(flowing.map(row));
    const key = sent[0].sender;
    expect(sent.every((s) => s.sender === key)).toBe(true);
    // Still waiting, unsigned, no nonce: the key's nonces went to the others without a gap.
    expect(await row(held)).toMatchObject({ stage: 'accepted', nonce: null, sender: null });
    const nonces = sent.map((s) => BigInt(s.nonce)).sort((a, b) => (a < b ? -1 : 1));
    expect(nonces[2] - nonces[0]).toBe(2n);
    expect(BigInt(await rpc.getTransactionCount(key, 'latest'))).toBe(nonces[2] + 1n);
    const stillHeld = (await t.http().get('/api/tx').query({ id: held }).expect(200)).body.data;
    expect(stillHeld).toMatchObject({ status: 'PENDING', executionTxHash: null });

    // The fee falls under the cap: it is sent, from the same key, at the next nonce.
    await setBaseFee(GWEI);
    const released = await waitForTx(t, held, { status: 'EXECUTED', timeoutMs: 30_000 });
    expect(released.policyId).toEqual(expect.any(String));
    const after = await row(held);
    expect(after.sender).toBe(key);
    expect(BigInt(after.nonce)).toBe(nonces[2] + 1n);
  });

  it('a held transaction past its validUntil is FAILED expired, never sent; its reservation and count go back to the policy and the end user', async () => {
    const team = await createAccount(t, 500);
    const user = randomAddress().toLowerCase();
    const policy = (await t.http().post('/api/policies').set('api-key', team.apiKey).send({ name: 'cheap', maxGasPriceGwei: 5, perEndUser: { maxTxs: 1, windowSeconds: 3600 } }).expect(201)).body.data;
    await setBaseFee(40n * GWEI);
    const id = (await submit(team.apiKey, { endUser: user, validUntil: Math.floor(Date.now() / 1000) + 3 }).expect(201)).body.data.txId as string;
    const during = (await t.http().get(`/api/policies/${policy.id}/usage`).set('api-key', team.apiKey).expect(200)).body.data;
    expect(during.reservedUsd).toBeGreaterThan(0);
    expect(during).toMatchObject({ txCount: 1, endUsers: [{ address: user, txCount: 1 }] });
    // Its one transaction is taken: the end user's cap refuses a second while the first waits.
    const second = await submit(team.apiKey, { endUser: user }).expect(403);
    expect(second.body.error.message).toMatch(/^end_user_limit:/);

    const failed = await waitForTx(t, id, { status: 'FAILED', timeoutMs: 30_000 });
    expect(failed).toMatchObject({ failureReason: 'expired', executionTxHash: null, isAccountCharged: false });
    expect(await row(id)).toMatchObject({ nonce: null, sender: null });
    const after = (await t.http().get(`/api/policies/${policy.id}/usage`).set('api-key', team.apiKey).expect(200)).body.data;
    expect(after).toEqual({ spentUsd: 0, reservedUsd: 0, txCount: 0, endUsers: [{ address: user, spentUsd: 0, txCount: 0, windowResetsAt: expect.any(String) }] });
    const [account] = await db.query('SELECT available_micro::text AS a, pending_micro::text AS p FROM accounts WHERE id = $1', [team.userId]);
    expect(account).toEqual({ a: '500000000', p: '0' });
    await setBaseFee(GWEI);
  });

  it('policyId is on the webhook body and the socket event of a sponsored transaction', async () => {
    const team = await createAccount(t, 500);
    const receiver = await WebhookReceiver.start();
    await t.app.listen(0);
    const port = (t.app.getHttpServer().address() as AddressInfo).port;
    const socket: Socket = io(`http://127.0.0.1:${port}/tx`, { path: '/socket.io', auth: { apiKey: team.apiKey }, transports: ['websocket'], reconnection: false, forceNew: true });
    const events: Array<Record<string, unknown>> = [];
    socket.on('tx.status', (n: Record<string, unknown>) => events.push(n));
    try {
      expect(await socket.timeout(10_000).emitWithAck('subscribe', { all: true })).toEqual({ ok: true });
      await t.http().post('/api/user/register-webhooks').set('api-key', team.apiKey).send([{ url: receiver.url(), authType: 'none' }]).expect(200);
      const policy = (await t.http().post('/api/policies').set('api-key', team.apiKey).send({ name: 'all' }).expect(201)).body.data;
      const id = (await submit(team.apiKey).expect(201)).body.data.txId as string;
      await waitForTx(t, id, { status: 'EXECUTED' });
      const calls = await receiver.waitFor((c) => c.filter((x) => x.body.txId === id).length >= 2);
      expect(calls.filter((c) => c.body.txId === id).map((c) => c.body.policyId)).toEqual([policy.id, policy.id]);
      const deadline = Date.now() + 10_000;
      while (events.filter((e) => e.txId === id).length < 2 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
      expect(events.filter((e) => e.txId === id).map((e) => e.policyId)).toEqual([policy.id, policy.id]);
    } finally {
      socket.close();
      await receiver.close();
    }
  });
});
