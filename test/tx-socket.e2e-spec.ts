import { JwtService } from '@nestjs/jwt';
import { randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { io, Socket } from 'socket.io-client';
import type { SocketErrorBody, SubscribeAck } from '../src/modules/events/socket/tx-socket.events';
import type { TxNotification } from '../src/modules/tx-events/tx-notification';
import { TxStatusPublisher } from '../src/modules/tx-events/tx-status.publisher';
import { mintCall, randomAddress, testChain, token } from './support/chain-fixtures';
import { adminAuth, createAccount, createTestApp, ISO_MS, TestApp } from './support/test-app';
import { testEnv } from './support/test-env';

interface Client {
  socket: Socket;
  received: TxNotification[];
}

/** Polls until `check` holds; the socket events arrive on their own schedule. */
async function until(check: () => boolean, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('timed out waiting for socket events');
    await new Promise((r) => setTimeout(r, 50));
  }
}

const settle = (ms = 1000) => new Promise((r) => setTimeout(r, ms));

describe('tx socket: live status over Socket.IO /tx', () => {
  let a: TestApp;
  let b: TestApp;
  let urlA: string;
  let urlB: string;
  const clients: Client[] = [];
  const usdc = token(testChain(31337), 'USDC');

  async function listen(t: TestApp): Promise<string> {
    await t.app.listen(0);
    return `http://127.0.0.1:${(t.app.getHttpServer().address() as AddressInfo).port}`;
  }

  /** `headers` go on the handshake (Origin, X-Forwarded-For), as a browser or a proxy would set them. */
  function open(url: string, auth: Record<string, string>, headers: Record<string, string> = {}): Client {
    const socket = io(`${url}/tx`, { path: '/socket.io', auth, transports: ['websocket'], reconnection: false, forceNew: true, extraHeaders: headers });
    const client = { socket, received: [] as TxNotification[] };
    socket.on('tx.status', (n: TxNotification) => client.received.push(n));
    clients.push(client);
    return client;
  }

  function subscribe(client: Client, request: unknown): Promise<SubscribeAck> {
    return client.socket.timeout(10_000).emitWithAck('subscribe', request);
  }

  /** Connects and subscribes; the ack only comes after the credentials check, so this also waits for auth. */
  async function subscribed(url: string, auth: Record<string, string>, request: unknown = { all: true }, headers: Record<string, string> = {}): Promise<Client> {
    const client = open(url, auth, headers);
    expect(await subscribe(client, request)).toEqual({ ok: true });
    return client;
  }

  async function refusal(url: string, auth: Record<string, string>, headers: Record<string, string> = {}): Promise<{ error: SocketErrorBody; reason: string }> {
    return dropped(open(url, auth, headers).socket);
  }

  /** The error event and disconnect reason of a socket the server drops; a socket still open after 20 s fails the test here. */
  async function dropped(socket: Socket): Promise<{ error: SocketErrorBody; reason: string }> {
    const error = new Promise<SocketErrorBody>((resolve) => socket.once('error', resolve));
    const reason = new Promise<string>((resolve) => socket.once('disconnect', resolve));
    const stillOpen = new Promise<never>((_, reject) => setTimeout(() => reject(new Error('the socket is still connected after 20 s')), 20_000).unref());
    return Promise.race([Promise.all([error, reason]).then(([e, r]) => ({ error: e, reason: r })), stillOpen]);
  }

  const limits = (address: string, body: object) => a.http().patch(`/admin/accounts/${address}/limits`).set(adminAuth).send(body).expect(200);

  async function submit(t: TestApp, apiKey: string): Promise<string> {
    const res = await t.http().post('/api/submit-tx').set('api-key', apiKey).send({ chainId: 31337, to: usdc, callData: mintCall(randomAddress()) }).expect(201);
    return res.body.data.txId;
  }

  const statusesOf = (client: Client, txId: string) => client.received.filter((n) => n.txId === txId).map((n) => n.status);

  function jwt(claims: Record<string, unknown>, options: { secret?: string; expiresIn?: number } = {}): string {
    const secret = options.secret ?? testEnv().JWT_SECRET;
    return new JwtService().sign({ aud: 'gas-relay', ...claims }, { secret, algorithm: 'HS256', expiresIn: options.expiresIn ?? 300 });
  }

  beforeAll(async () => {
    a = await createTestApp();
    b = await createTestApp();
    urlA = await listen(a);
    urlB = await listen(b);
  });

  afterEach(() => {
    for (const c of clients.splice(0)) c.socket.disconnect();
  });

  afterAll(async () => {
    await a?.close();
    await b?.close();
  });

  it('refuses missing and bad credentials with an error event, then disconnects', async () => {
    const missing = await refusal(urlA, {});
    expect(missing).toEqual({ error: { code: 'AUTH_001', message: expect.any(String) }, reason: 'io server disconnect' });
    const badKey = await refusal(urlA, { apiKey: 'rk_not-a-key' });
    expect(badKey).toEqual({ error: { code: 'AUTH_002', message: expect.any(String) }, reason: 'io server disconnect' });
    const badToken = await refusal(urlA, { token: 'not.a.jwt' });
    expect(badToken.error.code).toBe('AUTH_004');
  });

  it('pushes PENDING then EXECUTED to the owner, and nothing to another account', async () => {
    const owner = await createAccount(a, 20);
    const other = await createAccount(a, 20);
    const mine = await subscribed(urlA, { apiKey: owner.apiKey });
    const theirs = await subscribed(urlA, { apiKey: other.apiKey });
    const txId = await submit(a, owner.apiKey);
    await until(() => statusesOf(mine, txId).includes('EXECUTED'));
    await settle();
    expect(statusesOf(mine, txId)).toEqual(['PENDING', 'EXECUTED']);
    const [pending, executed] = mine.received.filter((n) => n.txId === txId);
    expect(pending).toEqual({
      event: 'tx.status',
      txId,
      userId: owner.userId,
      status: 'PENDING',
      previousStatus: null,
      chainId: 31337,
      executionTxHash: null,
      costUSD: null,
      nativePriceUsd: null,
      retries: 0,
      timestamp: expect.stringMatching(ISO_MS),
      failureReason: null,
      revertReason: null,
      stages: { acceptedAt: expect.stringMatching(ISO_MS), signedAt: null, broadcastAt: null, minedAt: null, settledAt: null },
      policyId: null,
    });
    expect(executed).toEqual({
      event: 'tx.status',
      txId,
      userId: owner.userId,
      status: 'EXECUTED',
      previousStatus: 'PENDING',
      chainId: 31337,
      executionTxHash: expect.stringMatching(/^0x[0-9a-f]{64}$/),
      costUSD: expect.any(Number),
      nativePriceUsd: 3000,
      retries: 0,
      timestamp: expect.stringMatching(ISO_MS),
      failureReason: null,
      revertReason: null,
      stages: {
        acceptedAt: pending.stages.acceptedAt,
        signedAt: expect.stringMatching(ISO_MS),
        broadcastAt: expect.stringMatching(ISO_MS),
        minedAt: expect.stringMatching(ISO_MS),
        settledAt: expect.stringMatching(ISO_MS),
      },
      policyId: null,
    });
    expect(theirs.received).toEqual([]);
  });

  it('refuses subscribe {txId} for another account exactly like an unknown id', async () => {
    const owner = await createAccount(a, 20);
    const other = await createAccount(a, 20);
    const txId = await submit(a, owner.apiKey);
    const unknownId = randomUUID();
    const intruder = open(urlA, { apiKey: other.apiKey });
    const foreign = await subscribe(intruder, { txId });
    const unknown = await subscribe(intruder, { txId: unknownId });
    expect(foreign).toEqual({ ok: false, error: { code: 'TRANSACTION_003', message: `transaction ${txId} not found` } });
    expect(unknown).toEqual({ ok: false, error: { code: 'TRANSACTION_003', message: `transaction ${unknownId} not found` } });
    expect(await subscribe(intruder, { nope: true })).toEqual({ ok: false, error: { code: 'VALIDATION_001', message: expect.any(String) } });
    expect(await subscribe(open(urlA, { apiKey: owner.apiKey }), { txId })).toEqual({ ok: true });
    await settle();
    expect(intruder.received).toEqual([]);
  });

  it('delivers to {txId} rooms, once per socket in both rooms, and keeps hash signals internal', async () => {
    const owner = await createAccount(a, 20);
    const both = await subscribed(urlA, { apiKey: owner.apiKey });
    const txId = await submit(a, owner.apiKey);
    expect(await subscribe(both, { txId })).toEqual({ ok: true });
    const onlyTx = await subscribed(urlA, { apiKey: owner.apiKey }, { txId });
    await until(() => statusesOf(both, txId).includes('EXECUTED'));
    // Synthetic signals after the real ones, told apart by `retries`; same connection, so in order.
    const publisher = a.app.get(TxStatusPublisher);
    const executed = both.received.find((n) => n.status === 'EXECUTED') as TxNotification;
    await publisher.publish('hash', { ...executed, retries: 8 });
    await publisher.publish('status', { ...executed, retries: 7 });
    await until(() => both.received.some((n) => n.retries === 7) && onlyTx.received.some((n) => n.retries === 7));
    await settle();
    expect(both.received.map((n) => [n.status, n.retries])).toEqual([
      ['PENDING', 0],
      ['EXECUTED', 0],
      ['EXECUTED', 7],
    ]);
    expect(onlyTx.received.filter((n) => n.retries !== 0)).toEqual([{ ...executed, retries: 7 }]);
  });

  describe('JWT', () => {
    it('authenticates a valid token and pushes its account events', async () => {
      const owner = await createAccount(a, 20);
      const client = await subscribed(urlA, { token: jwt({ sub: owner.userId, address: owner.address }) });
      const txId = await submit(a, owner.apiKey);
      await until(() => statusesOf(client, txId).includes('EXECUTED'));
      expect(statusesOf(client, txId)).toEqual(['PENDING', 'EXECUTED']);
    });

    it('refuses wrong-secret, wrong- or no-audience, expired, mismatched-address and disabled-account tokens', async () => {
      const owner = await createAccount(a, 20);
      const claims = { sub: owner.userId, address: owner.address };
      expect((await refusal(urlA, { token: jwt(claims, { secret: 'some-other-secret-0123456789abcdef' }) })).error.code).toBe('AUTH_004');
      expect((await refusal(urlA, { token: jwt({ ...claims, aud: 'another-service' }) })).error.code).toBe('AUTH_004');
      expect((await refusal(urlA, { token: jwt({ ...claims, aud: undefined }) })).error.code).toBe('AUTH_004');
      expect((await refusal(urlA, { token: jwt(claims, { expiresIn: -10 }) })).error.code).toBe('AUTH_005');
      expect((await refusal(urlA, { token: jwt({ sub: owner.userId, address: randomAddress() }) })).error.code).toBe('AUTH_004');
      expect((await refusal(urlA, { token: jwt({ sub: randomUUID() }) })).error.code).toBe('AUTH_004');
      await a.http().patch(`/admin/accounts/${owner.address}/limits`).set(adminAuth).send({ disabled: true }).expect(200);
      expect((await refusal(urlA, { token: jwt(claims) })).error.code).toBe('AUTH_004');
    });

    it('disconnects the session when its token expires', async () => {
      const owner = await createAccount(a, 20);
      const { socket } = await subscribed(urlA, { token: jwt({ sub: owner.userId, address: owner.address.toLowerCase() }, { expiresIn: 2 }) });
      const error = new Promise<SocketErrorBody>((resolve) => socket.once('error', resolve));
      const reason = new Promise<string>((resolve) => socket.once('disconnect', resolve));
      expect((await error).code).toBe('AUTH_005');
      expect(await reason).toBe('io server disconnect');
    });
  });

  it('disconnects the sockets of a revoked key on every instance, and keeps the account\'s other key connected', async () => {
    const owner = await createAccount(a, 20);
    const second = await a.http().post(`/admin/accounts/${owner.address}/keys`).set(adminAuth).expect(201);
    const secondKey: string = second.body.data.apiKey;
    const onA = await subscribed(urlA, { apiKey: owner.apiKey });
    const onB = await subscribed(urlB, { apiKey: owner.apiKey });
    const survivor = await subscribed(urlB, { apiKey: secondKey });
    const refused = [onA, onB].map(({ socket }) => ({
      error: new Promise<SocketErrorBody>((resolve) => socket.once('error', resolve)),
      reason: new Promise<string>((resolve) => socket.once('disconnect', resolve)),
    }));
    await a.http().post('/admin/keys/revoke').set(adminAuth).send({ key: owner.apiKey }).expect(200);
    for (const { error, reason } of refused) {
      expect((await error).code).toBe('AUTH_002');
      expect(await reason).toBe('io server disconnect');
    }
    // The account's other key still authenticates, so its socket keeps receiving events.
    const txId = await submit(a, secondKey);
    await until(() => statusesOf(survivor, txId).includes('EXECUTED'));
    expect(survivor.socket.connected).toBe(true);
    expect(statusesOf(onA, txId)).toEqual([]);
  });

  describe("the account's ipWhitelist and domainWhitelist (403 AUTH_003, as for HTTP)", () => {
    let c: TestApp;
    let urlC: string;
    beforeAll(async () => {
      // Behind a proxy on loopback: the X-Forwarded-For hop it adds is the client.
      c = await createTestApp({ env: { TRUST_PROXY: '127.0.0.1,::1' } });
      urlC = await listen(c);
    });
    afterAll(() => c?.close());

    it('refuses a socket from an IP outside the ipWhitelist at the handshake, by api-key or JWT; X-Forwarded-For counts only through TRUST_PROXY', async () => {
      const owner = await createAccount(a, 20);
      await limits(owner.address, { ipWhitelist: ['203.0.113.0/24'] });
      const token = jwt({ sub: owner.userId, address: owner.address.toLowerCase() });
      for (const auth of [{ apiKey: owner.apiKey }, { token }] as Array<Record<string, string>>) {
        const refused = await refusal(urlC, auth, { 'x-forwarded-for': '198.51.100.7' });
        expect(refused).toEqual({ error: { code: 'AUTH_003', message: expect.stringMatching(/198\.51\.100\.7 is not in the account's ipWhitelist/) }, reason: 'io server disconnect' });
        await subscribed(urlC, auth, { all: true }, { 'x-forwarded-for': '203.0.113.5' });
      }
      // Without TRUST_PROXY the header is the client's say-so: the socket's own address (loopback) decides.
      const spoofed = await refusal(urlA, { apiKey: owner.apiKey }, { 'x-forwarded-for': '203.0.113.5' });
      expect(spoofed.error.code).toBe('AUTH_003');
      // A list that names loopback lets it in.
      await limits(owner.address, { ipWhitelist: ['127.0.0.0/8', '::1'] });
      await subscribed(urlA, { apiKey: owner.apiKey });
    });

    it('refuses a socket whose Origin is outside the domainWhitelist; a listed Origin or none is let in', async () => {
      const owner = await createAccount(a, 20);
      await limits(owner.address, { domainWhitelist: ['app.example.com', '*.example.org'] });
      const token = jwt({ sub: owner.userId, address: owner.address.toLowerCase() });
      for (const auth of [{ apiKey: owner.apiKey }, { token }] as Array<Record<string, string>>) {
        for (const origin of ['https://evil.example.net', 'https://app.example.com.evil.net', 'null']) {
          const refused = await refusal(urlA, auth, { origin });
          expect(refused).toEqual({ error: { code: 'AUTH_003', message: expect.stringMatching(/domainWhitelist/) }, reason: 'io server disconnect' });
        }
        await subscribed(urlA, auth, { all: true }, { origin: 'https://app.example.com' });
        await subscribed(urlA, auth, { all: true }, { origin: 'https://a.b.example.org' });
        await subscribed(urlA, auth);
      }
    });

    it("drops connected sockets, on every instance, when the account's lists change to exclude them; other accounts' sockets stay", async () => {
      const owner = await createAccount(a, 20);
      const other = await createAccount(a, 20);
      const token = jwt({ sub: owner.userId, address: owner.address.toLowerCase() });
      const byKey = await subscribed(urlA, { apiKey: owner.apiKey });
      const byToken = await subscribed(urlB, { token });
      const fromApp = await subscribed(urlA, { apiKey: owner.apiKey }, { all: true }, { origin: 'https://app.example.com' });
      const bystander = await subscribed(urlA, { apiKey: other.apiKey });

      // An Origin list that still names the app's origin keeps all three.
      await limits(owner.address, { domainWhitelist: ['app.example.com'] });
      await settle();
      expect([byKey, byToken, fromApp].map((cl) => cl.socket.connected)).toEqual([true, true, true]);

      // One that does not: the socket with that Origin goes, those without an Origin stay.
      const droppedByOrigin = dropped(fromApp.socket);
      await limits(owner.address, { domainWhitelist: ['admin.example.com'] });
      expect(await droppedByOrigin).toEqual({ error: { code: 'AUTH_003', message: expect.stringMatching(/domainWhitelist/) }, reason: 'io server disconnect' });
      expect([byKey.socket.connected, byToken.socket.connected]).toEqual([true, true]);

      // An IP list without loopback: the api-key socket on A and the JWT socket on B both go.
      const goes = [dropped(byKey.socket), dropped(byToken.socket)];
      await limits(owner.address, { ipWhitelist: ['203.0.113.0/24'] });
      for (const outcome of await Promise.all(goes)) {
        expect(outcome).toEqual({ error: { code: 'AUTH_003', message: expect.stringMatching(/ipWhitelist/) }, reason: 'io server disconnect' });
      }
      const txId = await submit(a, other.apiKey);
      await until(() => statusesOf(bystander, txId).includes('EXECUTED'));
      expect(bystander.socket.connected).toBe(true);
    });
  });

  it('with two instances, a client on B gets each status of a transaction submitted on A exactly once', async () => {
    const owner = await createAccount(a, 20);
    const onB = await subscribed(urlB, { apiKey: owner.apiKey });
    const onA = await subscribed(urlA, { apiKey: owner.apiKey });
    const txId = await submit(a, owner.apiKey);
    await until(() => statusesOf(onB, txId).includes('EXECUTED') && statusesOf(onA, txId).includes('EXECUTED'));
    await settle(1500);
    expect(statusesOf(onB, txId)).toEqual(['PENDING', 'EXECUTED']);
    expect(statusesOf(onA, txId)).toEqual(['PENDING', 'EXECUTED']);
  });
});
