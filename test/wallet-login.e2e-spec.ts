import { Controller, Get } from '@nestjs/common';
import { JwtService } from '@nestjs/jwt';
import { HDNodeWallet, Wallet } from 'ethers';
import Redis from 'ioredis';
import { randomUUID } from 'node:crypto';
import { Caller, CurrentCaller } from '../src/common/http/authenticated-request';
import { ApiKeyOrJwt } from '../src/modules/auth/jwt/api-key-or-jwt.decorator';
import { loginMessageKey } from '../src/modules/auth/login/login-messages.store';
import { formatSiweMessage } from '../src/modules/auth/login/siwe-message';
import { REDIS } from '../src/redis/redis.module';
import { adminAuth, createTestApp, ISO_MS, TestApp } from './support/test-app';
import { TEST_JWT_SECRET } from './support/test-env';

/** Stands in for POST /api/user/register-webhooks until that exists: api-key or JWT. */
@Controller('api/_wallet-probe')
class WalletProbeController {
  @Get()
  @ApiKeyOrJwt()
  whoAmI(@CurrentCaller() caller: Caller) {
    return { userId: caller.account.id, keyId: caller.keyId ?? null };
  }
}

interface MessageData {
  message: string;
  messageId: string;
  expiry: number;
}

const nowSeconds = () => Math.floor(Date.now() / 1000);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function decodeJwt(token: string): { header: Record<string, unknown>; claims: Record<string, unknown> } {
  const [header, claims] = token.split('.').slice(0, 2).map((part) => JSON.parse(Buffer.from(part, 'base64url').toString('utf8')) as Record<string, unknown>);
  return { header, claims };
}

/** The public origin this spec's service is configured with; requests reach it at 127.0.0.1:<port>. */
const PUBLIC_ORIGIN = 'https://relay.example.com';

describe('wallet login', () => {
  let t: TestApp;
  let redis: Redis;

  beforeAll(async () => {
    t = await createTestApp({ controllers: [WalletProbeController], env: { PUBLIC_ORIGIN } });
    redis = t.app.get<Redis>(REDIS);
  });
  afterAll(() => t.close());

  /** An account for a wallet whose key we hold (the createAccount helper keeps no key). */
  async function walletWithAccount(): Promise<{ wallet: HDNodeWallet; userId: string; apiKey: string }> {
    const wallet = Wallet.createRandom();
    const res = await t.http().post('/admin/accounts').set(adminAuth).send({ address: wallet.address }).expect(201);
    return { wallet, userId: res.body.data.userId, apiKey: res.body.data.apiKey };
  }

  async function requestMessage(address: string): Promise<MessageData> {
    const res = await t.http().post('/api/auth/message').send({ address }).expect(200);
    return res.body.data;
  }

  const verify = (messageId: string, signature: string) => t.http().post('/api/auth/verify').send({ messageId, signature });

  async function login(wallet: HDNodeWallet): Promise<{ token: string; expiresAt: number; userId: string; address: string }> {
    const { message, messageId } = await requestMessage(wallet.address);
    const res = await verify(messageId, await wallet.signMessage(message)).expect(200);
    return res.body.data;
  }

  describe('POST /api/auth/message', () => {
    it('returns a one-time EIP-4361 message for the checksummed address, valid 5 minutes', async () => {
      const wallet = Wallet.createRandom();
      const before = nowSeconds();
      const res = await t.http().post('/api/auth/message').send({ address: wallet.address.toLowerCase() }).expect(200);
      expect(res.body).toEqual({ success: true, data: { message: expect.any(String), messageId: expect.any(String), expiry: expect.any(Number) }, timestamp: expect.stringMatching(ISO_MS) });
      const { message, messageId, expiry } = res.body.data as MessageData;
      expect(expiry).toBeGreaterThanOrEqual(before + 300);
      expect(expiry).toBeLessThanOrEqual(nowSeconds() + 300);

      const lines = message.split('\n');
      expect(lines[0]).toBe('relay.example.com wants you to sign in with your Ethereum account:');
      expect(lines[1]).toBe(wallet.address);
      expect(lines[2]).toBe('');
      expect(lines[3]).toMatch(/^Sign in to the gas relay\./);
      expect(lines[4]).toBe('');
      expect(lines[5]).toBe('URI: https://relay.example.com');
      expect(lines[6]).toBe('Version: 1');
      expect(lines[7]).toBe('Chain ID: 1');
      expect(lines[8]).toMatch(/^Nonce: [A-Za-z0-9]{8,}$/);
      expect(lines[9]).toMatch(/^Issued At: \d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
      expect(lines[10]).toBe(`Expiration Time: ${new Date(expiry * 1000).toISOString()}`);
      expect(lines).toHaveLength(11);

      // Stored server side (shared by every instance) with the 5-minute lifetime.
      const ttl = await redis.ttl(loginMessageKey(messageId));
      expect(ttl).toBeGreaterThan(290);
      expect(ttl).toBeLessThanOrEqual(300);
    });

    it('names the configured PUBLIC_ORIGIN whatever Host the request was sent with', async () => {
      const address = Wallet.createRandom().address;
      for (const headers of [{ host: 'phish.example' }, { host: 'relay.example.com.phish.example:443', 'x-forwarded-host': 'phish.example', 'x-forwarded-proto': 'http' }]) {
        const res = await t.http().post('/api/auth/message').set(headers).send({ address }).expect(200);
        const lines = (res.body.data as MessageData).message.split('\n');
        expect(lines[0]).toBe('relay.example.com wants you to sign in with your Ethereum account:');
        expect(lines[5]).toBe('URI: https://relay.example.com');
        expect(res.body.data.message).not.toContain('phish');
      }
    });

    it('gives every message its own nonce and id', async () => {
      const address = Wallet.createRandom().address;
      const [a, b] = await Promise.all([requestMessage(address), requestMessage(address)]);
      expect(a.messageId).not.toBe(b.messageId);
      const nonce = (m: string) => /Nonce: (\w+)/.exec(m)?.[1];
      expect(nonce(a.message)).not.toBe(nonce(b.message));
    });

    it.each([['not an address', 'wallet'], ['too short', '0x1234'], ['not hex', `0x${'g'.repeat(40)}`]])('400 USER_003 for an address that does not parse (%s)', async (_, address) => {
      const res = await t.http().post('/api/auth/message').send({ address }).expect(400);
      expect(res.body.error).toMatchObject({ code: 'USER_003', category: 'USER' });
    });

    it('400 VALIDATION_004 without an address', async () => {
      const res = await t.http().post('/api/auth/message').send({}).expect(400);
      expect(res.body.error.code).toBe('VALIDATION_004');
    });
  });

  describe('POST /api/auth/verify', () => {
    it('exchanges the signature for a one-hour HS256 JWT with sub, address, iat, exp', async () => {
      const { wallet, userId } = await walletWithAccount();
      const { message, messageId } = await requestMessage(wallet.address);
      const res = await verify(messageId, await wallet.signMessage(message)).expect(200);
      expect(res.body).toEqual({
        success: true,
        data: { token: expect.any(String), expiresAt: expect.any(Number), userId, address: wallet.address.toLowerCase() },
        timestamp: expect.stringMatching(ISO_MS),
      });
      const { token, expiresAt } = res.body.data;
      const { header, claims } = decodeJwt(token);
      expect(header.alg).toBe('HS256');
      expect(claims).toEqual({ sub: userId, address: wallet.address.toLowerCase(), aud: 'gas-relay', iat: expect.any(Number), exp: expiresAt });
      expect(expiresAt - (claims.iat as number)).toBe(3600);
      expect(Math.abs((claims.iat as number) - nowSeconds())).toBeLessThanOrEqual(5);
      expect(await redis.exists(loginMessageKey(messageId))).toBe(0);
    });

    it('replaying a used message: 401 AUTH_006', async () => {
      const { wallet } = await walletWithAccount();
      const { message, messageId } = await requestMessage(wallet.address);
      const signature = await wallet.signMessage(message);
      await verify(messageId, signature).expect(200);
      const res = await verify(messageId, signature).expect(401);
      expect(res.body.error).toMatchObject({ code: 'AUTH_006', category: 'AUTH' });
    });

    it('two concurrent verifies of one message: exactly one token', async () => {
      const { wallet } = await walletWithAccount();
      const { message, messageId } = await requestMessage(wallet.address);
      const signature = await wallet.signMessage(message);
      const results = await Promise.all(Array.from({ length: 5 }, () => verify(messageId, signature)));
      expect(results.map((r) => r.status).sort()).toEqual([200, 401, 401, 401, 401]);
      expect(results.filter((r) => r.status === 401).every((r) => r.body.error.code === 'AUTH_006')).toBe(true);
    });

    it('an expired message (Redis TTL ran out): 401 AUTH_006', async () => {
      const { wallet } = await walletWithAccount();
      const { message, messageId } = await requestMessage(wallet.address);
      await redis.pexpire(loginMessageKey(messageId), 1);
      await sleep(20);
      const res = await verify(messageId, await wallet.signMessage(message)).expect(401);
      expect(res.body.error.code).toBe('AUTH_006');
    });

    it('a message past its expiry that Redis still holds: 401 AUTH_006', async () => {
      const { wallet } = await walletWithAccount();
      const { message, messageId } = await requestMessage(wallet.address);
      const key = loginMessageKey(messageId);
      const stored = JSON.parse((await redis.get(key)) ?? 'null') as { expiry: number };
      await redis.set(key, JSON.stringify({ ...stored, expiry: nowSeconds() - 1 }), 'KEEPTTL');
      const res = await verify(messageId, await wallet.signMessage(message)).expect(401);
      expect(res.body.error.code).toBe('AUTH_006');
    });

    it('an unknown messageId: 401 AUTH_006', async () => {
      const wallet = Wallet.createRandom();
      const res = await verify(randomUUID(), await wallet.signMessage('anything')).expect(401);
      expect(res.body.error.code).toBe('AUTH_006');
    });

    it('a signature by another wallet: 400 AUTH_008, and the message is used up', async () => {
      const { wallet } = await walletWithAccount();
      const { message, messageId } = await requestMessage(wallet.address);
      const res = await verify(messageId, await Wallet.createRandom().signMessage(message)).expect(400);
      expect(res.body.error).toMatchObject({ code: 'AUTH_008', category: 'AUTH' });
      await verify(messageId, await wallet.signMessage(message)).expect(401);
    });

    it('a message naming another domain or URI than PUBLIC_ORIGIN: 400 AUTH_008, and the message is used up', async () => {
      const { wallet } = await walletWithAccount();
      // As a message issued before PUBLIC_ORIGIN changed, or by a phishing page's Host, would be stored.
      const foreign = [
        { domain: 'phish.example', uri: 'https://phish.example' },
        { domain: 'relay.example.com', uri: 'https://phish.example' },
        { domain: 'phish.example', uri: PUBLIC_ORIGIN },
        { domain: 'relay.example.com', uri: 'http://relay.example.com' },
      ];
      for (const origin of foreign) {
        const expiry = nowSeconds() + 300;
        const message = formatSiweMessage({ ...origin, address: wallet.address, statement: 'Sign in.', uri: origin.uri, chainId: 1, nonce: randomUUID().replace(/-/g, ''), issuedAt: new Date(), expirationTime: new Date(expiry * 1000) });
        const messageId = randomUUID();
        await redis.set(loginMessageKey(messageId), JSON.stringify({ address: wallet.address.toLowerCase(), message, expiry }), 'EX', 300);
        const signature = await wallet.signMessage(message);
        const res = await verify(messageId, signature).expect(400);
        expect(res.body.error).toMatchObject({ code: 'AUTH_008', message: expect.stringContaining('not this service') });
        expect((await verify(messageId, signature).expect(401)).body.error.code).toBe('AUTH_006');
      }
    });

    it('a message issued by an instance configured with another PUBLIC_ORIGIN: 400 AUTH_008 here', async () => {
      const { wallet } = await walletWithAccount();
      const elsewhere = await createTestApp({ env: { PUBLIC_ORIGIN: 'https://old-relay.example.com' } });
      try {
        const res = await elsewhere.http().post('/api/auth/message').send({ address: wallet.address }).expect(200);
        const { message, messageId } = res.body.data as MessageData;
        expect(message.split('\n')[0]).toBe('old-relay.example.com wants you to sign in with your Ethereum account:');
        expect((await verify(messageId, await wallet.signMessage(message)).expect(400)).body.error.code).toBe('AUTH_008');
      } finally {
        await elsewhere.close();
      }
    });

    it('a signature over other text: 400 AUTH_008', async () => {
      const { wallet } = await walletWithAccount();
      const { message, messageId } = await requestMessage(wallet.address);
      const res = await verify(messageId, await wallet.signMessage(`${message}\n`)).expect(400);
      expect(res.body.error.code).toBe('AUTH_008');
    });

    it.each([['not hex', 'signature'], ['too short', '0x1234'], ['bad v', `0x${'11'.repeat(64)}05`]])(
      'a signature that does not parse (%s): 400 AUTH_008, and the message stays usable',
      async (_, signature) => {
        const { wallet } = await walletWithAccount();
        const { message, messageId } = await requestMessage(wallet.address);
        const res = await verify(messageId, signature).expect(400);
        expect(res.body.error.code).toBe('AUTH_008');
        await verify(messageId, await wallet.signMessage(message)).expect(200);
      },
    );

    it('400 VALIDATION_004 when messageId or signature is missing', async () => {
      expect((await t.http().post('/api/auth/verify').send({ signature: '0x12' }).expect(400)).body.error.code).toBe('VALIDATION_004');
      expect((await t.http().post('/api/auth/verify').send({ messageId: 'x' }).expect(400)).body.error.code).toBe('VALIDATION_004');
    });

    it('a wallet without an account: 404 USER_001', async () => {
      const wallet = Wallet.createRandom();
      const { message, messageId } = await requestMessage(wallet.address);
      const res = await verify(messageId, await wallet.signMessage(message)).expect(404);
      expect(res.body.error).toMatchObject({ code: 'USER_001', category: 'USER' });
    });

    it('a disabled account: 403 USER_002', async () => {
      const { wallet } = await walletWithAccount();
      await t.http().patch(`/admin/accounts/${wallet.address}/limits`).set(adminAuth).send({ disabled: true }).expect(200);
      const { message, messageId } = await requestMessage(wallet.address);
      const res = await verify(messageId, await wallet.signMessage(message)).expect(403);
      expect(res.body.error.code).toBe('USER_002');
    });
  });

  describe('@ApiKeyOrJwt() routes', () => {
    const probe = () => t.http().get('/api/_wallet-probe');
    const signed = (claims: Record<string, unknown>, secret = TEST_JWT_SECRET) => new JwtService().sign({ aud: 'gas-relay', ...claims }, { secret, algorithm: 'HS256' });

    it('no credentials: 401 AUTH_001 (also for a non-Bearer Authorization)', async () => {
      expect((await probe().expect(401)).body.error.code).toBe('AUTH_001');
      expect((await probe().set('authorization', 'Basic dXNlcjpwYXNz').expect(401)).body.error.code).toBe('AUTH_001');
    });

    it('an invalid api-key: 401 AUTH_002, even beside a valid JWT', async () => {
      const { wallet } = await walletWithAccount();
      const { token } = await login(wallet);
      expect((await probe().set('api-key', 'rk_not-a-real-key').expect(401)).body.error.code).toBe('AUTH_002');
      expect((await probe().set('api-key', 'rk_not-a-real-key').set('authorization', `Bearer ${token}`).expect(401)).body.error.code).toBe('AUTH_002');
    });

    it('a valid api-key authenticates as its account', async () => {
      const { userId, apiKey } = await walletWithAccount();
      const res = await probe().set('api-key', apiKey).expect(200);
      expect(res.body.data).toEqual({ userId, keyId: expect.any(String) });
    });

    it('a valid JWT authenticates as its account (no key id)', async () => {
      const { wallet, userId } = await walletWithAccount();
      const { token } = await login(wallet);
      const res = await probe().set('authorization', `Bearer ${token}`).expect(200);
      expect(res.body.data).toEqual({ userId, keyId: null });
    });

    it('a tampered, foreign or unsigned JWT: 401 AUTH_004', async () => {
      const { wallet, userId } = await walletWithAccount();
      const other = await walletWithAccount();
      const { token } = await login(wallet);
      const [header, payload, signature] = token.split('.');
      const claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as Record<string, unknown>;
      const forged = Buffer.from(JSON.stringify({ ...claims, sub: other.userId })).toString('base64url');
      const unsignedHeader = Buffer.from(JSON.stringify({ alg: 'none', typ: 'JWT' })).toString('base64url');
      const now = nowSeconds();
      const bad = [
        `${header}.${forged}.${signature}`,
        signed({ sub: userId, address: wallet.address.toLowerCase(), iat: now, exp: now + 600 }, 'another-secret-0123456789abcdef0123456789'),
        `${unsignedHeader}.${payload}.`,
        'not-a-jwt',
      ];
      for (const candidate of bad) {
        const res = await probe().set('authorization', `Bearer ${candidate}`).expect(401);
        expect(res.body.error).toMatchObject({ code: 'AUTH_004', category: 'AUTH' });
      }
    });

    it('a JWT without aud, or for another audience: 401 AUTH_004', async () => {
      const { wallet, userId } = await walletWithAccount();
      const now = nowSeconds();
      const claims = { sub: userId, address: wallet.address.toLowerCase(), iat: now, exp: now + 600 };
      await probe().set('authorization', `Bearer ${signed(claims)}`).expect(200);
      for (const aud of [undefined, 'another-service', ['gas-relay', 'another-service'], '']) {
        const res = await probe().set('authorization', `Bearer ${signed({ ...claims, aud })}`).expect(401);
        expect(res.body.error).toMatchObject({ code: 'AUTH_004', category: 'AUTH' });
      }
    });

    it("a JWT from outside the account's ipWhitelist or domainWhitelist: 403 AUTH_003, as for an API key", async () => {
      const { wallet } = await walletWithAccount();
      const { token } = await login(wallet);
      const limits = (body: object) => t.http().patch(`/admin/accounts/${wallet.address}/limits`).set(adminAuth).send(body).expect(200);
      const bearer = { authorization: `Bearer ${token}` };
      await limits({ ipWhitelist: ['203.0.113.0/24'] });
      for (const path of ['/api/_wallet-probe', '/api/txs', '/api/account', '/api/user/webhooks']) {
        const res = await t.http().get(path).set(bearer).expect(403);
        expect(res.body.error).toMatchObject({ code: 'AUTH_003', message: expect.stringMatching(/ipWhitelist/) });
      }
      await limits({ ipWhitelist: ['127.0.0.1', '::1'], domainWhitelist: ['app.example.com'] });
      await probe().set(bearer).expect(200);
      await probe().set(bearer).set('origin', 'https://app.example.com').expect(200);
      const res = await probe().set(bearer).set('origin', 'https://phish.example').expect(403);
      expect(res.body.error).toMatchObject({ code: 'AUTH_003', message: expect.stringMatching(/domainWhitelist/) });
    });

    it('an expired JWT: 401 AUTH_005', async () => {
      const { wallet, userId } = await walletWithAccount();
      const now = nowSeconds();
      const token = signed({ sub: userId, address: wallet.address.toLowerCase(), iat: now - 7200, exp: now - 3600 });
      const res = await probe().set('authorization', `Bearer ${token}`).expect(401);
      expect(res.body.error).toMatchObject({ code: 'AUTH_005', category: 'AUTH' });
    });

    it('a JWT of a disabled or missing account: 401 AUTH_004', async () => {
      const { wallet } = await walletWithAccount();
      const { token } = await login(wallet);
      await t.http().patch(`/admin/accounts/${wallet.address}/limits`).set(adminAuth).send({ disabled: true }).expect(200);
      expect((await probe().set('authorization', `Bearer ${token}`).expect(401)).body.error.code).toBe('AUTH_004');

      const now = nowSeconds();
      const ghost = signed({ sub: randomUUID(), address: Wallet.createRandom().address.toLowerCase(), iat: now, exp: now + 600 });
      expect((await probe().set('authorization', `Bearer ${ghost}`).expect(401)).body.error.code).toBe('AUTH_004');
    });
  });
});
