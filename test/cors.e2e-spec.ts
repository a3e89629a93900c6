import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { DataSource } from 'typeorm';
import { mintCall, randomAddress, testChain, token } from './support/chain-fixtures';
import { adminAuth, createAccount, createTestApp, TestApp } from './support/test-app';
import { testEnv } from './support/test-env';

const run = promisify(execFile);
const ROOT = join(__dirname, '..');
const HEADERS = ['api-key', 'authorization', 'content-type', 'idempotency-key', 'x-relay-region'];

/** A browser's preflight before a cross-origin POST with JSON and an api-key. */
const preflight = (t: TestApp, path: string, origin: string, method = 'POST') =>
  t.http().options(path).set('Origin', origin).set('Access-Control-Request-Method', method).set('Access-Control-Request-Headers', 'api-key, content-type');

describe('CORS (extensions.md, "CORS") and the client IP behind a proxy', () => {
  describe('CORS_ORIGINS unset (*)', () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await createTestApp();
    });
    afterAll(() => t.close());

    it('answers a browser preflight with 204, the methods the path serves and the allowed headers', async () => {
      const res = await preflight(t, '/api/submit-tx', 'https://app.example.com').expect(204);
      expect(res.headers['access-control-allow-origin']).toBe('*');
      expect(res.headers['access-control-allow-methods']).toBe('OPTIONS, POST');
      expect(res.headers['access-control-allow-headers'].split(', ')).toEqual(HEADERS);
      expect(res.headers['access-control-max-age']).toBe('600');
      expect(res.text).toBe('');

      const user = await preflight(t, '/api/user', 'https://app.example.com', 'GET').expect(204);
      expect(user.headers['access-control-allow-methods']).toBe('GET, HEAD, OPTIONS');
      const limits = await preflight(t, '/admin/accounts/0x70997970C51812dc3A010C7d01b50e0d17dc79C8/limits', 'https://ops.example.com', 'PATCH').expect(204);
      expect(limits.headers['access-control-allow-methods']).toBe('OPTIONS, PATCH');
      // The Socket.IO polling transport (answered by engine.io, before Express) allows the same origins.
      const socketIo = await t.http().options('/socket.io/?EIO=4&transport=polling').set('Origin', 'https://app.example.com').set('Access-Control-Request-Method', 'GET').expect(204);
      expect(socketIo.headers['access-control-allow-origin']).toBe('*');
      // A path the API does not serve is still a 404 in its envelope.
      await preflight(t, '/api/nope', 'https://app.example.com').expect(404);
    });

    it('lets the browser read answers (errors too), and the account domainWhitelist still applies after CORS', async () => {
      const { address, apiKey } = await createAccount(t, 10);
      await t.http().patch(`/admin/accounts/${address}/limits`).set(adminAuth).send({ domainWhitelist: ['app.example.com'] }).expect(200);
      const usdc = token(testChain(31337), 'USDC');
      const body = { chainId: 31337, to: usdc, callData: mintCall(randomAddress()) };
      const ok = await t.http().post('/api/quote').set('api-key', apiKey).set('Origin', 'https://app.example.com').send(body).expect(201);
      expect(ok.headers['access-control-allow-origin']).toBe('*');
      expect(ok.headers['access-control-expose-headers']).toContain('x-trace-id');
      const refused = await t.http().post('/api/quote').set('api-key', apiKey).set('Origin', 'https://other.example.com').send(body).expect(403);
      expect(refused.body.error.code).toBe('AUTH_003');
      expect(refused.headers['access-control-allow-origin']).toBe('*');
      // A preflight needs no api-key and is not subject to the account's lists.
      await preflight(t, '/api/quote', 'https://other.example.com').expect(204);
    });
  });

  describe('CORS_ORIGINS list and TRUST_PROXY', () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await createTestApp({ env: { CORS_ORIGINS: 'https://app.example.com,http://localhost:5173', TRUST_PROXY: '127.0.0.1,::1' } });
    });
    afterAll(() => t.close());

    it('echoes a listed origin (with Vary) and gives an unlisted one no CORS headers', async () => {
      const listed = await preflight(t, '/api/submit-tx', 'http://localhost:5173').expect(204);
      expect(listed.headers['access-control-allow-origin']).toBe('http://localhost:5173');
      expect(listed.headers.vary).toMatch(/Origin/);
      const unlisted = await preflight(t, '/api/submit-tx', 'https://evil.example.net').expect(204);
      expect(unlisted.headers['access-control-allow-origin']).toBeUndefined();
      expect(unlisted.headers['access-control-allow-methods']).toBeUndefined();
      const socketIo = await t.http().options('/socket.io/?EIO=4&transport=polling').set('Origin', 'https://app.example.com').set('Access-Control-Request-Method', 'GET').expect(204);
      expect(socketIo.headers['access-control-allow-origin']).toBe('https://app.example.com');
    });

    it('takes the client IP from X-Forwarded-For only because the proxy (loopback) is trusted', async () => {
      const { address, apiKey } = await createAccount(t, 10);
      await t.http().patch(`/admin/accounts/${address}/limits`).set(adminAuth).send({ ipWhitelist: ['203.0.113.0/24'] }).expect(200);
      const quote = () => t.http().post('/api/quote').set('api-key', apiKey).send({ chainId: 31337, to: token(testChain(31337), 'USDC'), callData: mintCall(randomAddress()) });
      await quote().set('X-Forwarded-For', '203.0.113.7').expect(201);
      expect((await quote().set('X-Forwarded-For', '198.51.100.1').expect(403)).body.error.code).toBe('AUTH_003');
      await quote().expect(403);
    });

    it('refuses a bad TRUST_PROXY or CORS_ORIGINS at startup', async () => {
      await expect(createTestApp({ env: { TRUST_PROXY: 'not-an-ip' } })).rejects.toThrow(/TRUST_PROXY/);
      await expect(createTestApp({ env: { CORS_ORIGINS: 'app.example.com' } })).rejects.toThrow(/CORS_ORIGINS/);
      await expect(createTestApp({ env: { APPROVAL_TIMEOUT_MS: '10' } })).rejects.toThrow(/APPROVAL_TIMEOUT_MS/);
    });
  });

  describe('admin CLI', () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await createTestApp({ env: { APP_ROLE: 'api' } });
    });
    afterAll(() => t.close());

    async function cli(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
      try {
        const { stdout, stderr } = await run(join(ROOT, 'node_modules/.bin/ts-node'), ['--transpile-only', 'src/cli/admin.ts', ...args], { cwd: ROOT, env: { ...process.env, ...testEnv() } });
        return { code: 0, stdout, stderr };
      } catch (err) {
        const e = err as { code: number; stdout: string; stderr: string };
        return { code: e.code, stdout: e.stdout, stderr: e.stderr };
      }
    }

    it('sets the policy with accounts limits, refuses unknown flags and bad values, sets a key rate limit', async () => {
      const { address } = await createAccount(t, 10);
      const usdc = token(testChain(31337), 'USDC');
      const set = await cli([
        'accounts', 'limits', '--address', address, '--json',
        '--ip-whitelist', '127.0.0.1,10.0.0.0/8', '--domain-whitelist', 'app.example.com,*.example.org',
        '--allowed-targets', JSON.stringify([{ chainId: 31337, address: usdc, selectors: ['0x40c10f19'] }]),
        '--low-balance-usd', '3', '--approval-webhook', 'https://approver.example.com/hook', '--approval-secret', 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
      ]);
      expect(set.code).toBe(0);
      expect(JSON.parse(set.stdout).userConfig).toMatchObject({
        ipWhitelist: ['127.0.0.1', '10.0.0.0/8'],
        domainWhitelist: ['app.example.com', '*.example.org'],
        allowedTargets: [{ chainId: 31337, address: usdc.toLowerCase(), selectors: ['0x40c10f19'] }],
        lowBalanceThresholdUsd: 3,
        approvalWebhook: { url: 'https://approver.example.com/hook', enabled: true },
      });
      expect(set.stdout).not.toContain('whsec_');

      const unknown = await cli(['accounts', 'limits', '--address', address, '--ip-whitelst', '1.2.3.4']);
      expect(unknown.code).toBe(2);
      expect(unknown.stderr).toMatch(/unknown option '--ip-whitelst'/);
      const bad = await cli(['accounts', 'limits', '--address', address, '--ip-whitelist', '1.2.3.400']);
      expect(bad.code).toBe(2);
      expect(bad.stderr).toMatch(/ipWhitelist/);

      const cleared = await cli(['accounts', 'limits', '--address', address, '--json', '--ip-whitelist', '', '--low-balance-usd', 'none', '--remove-approval-webhook']);
      expect(cleared.code).toBe(0);
      expect(JSON.parse(cleared.stdout).userConfig).toMatchObject({ ipWhitelist: [], lowBalanceThresholdUsd: null, approvalWebhook: null, domainWhitelist: ['app.example.com', '*.example.org'] });

      const [{ id: keyId }] = await t.app.get(DataSource).query('SELECT k.id FROM api_keys k JOIN accounts a ON a.id = k.user_id WHERE a.address = $1', [address.toLowerCase()]);
      const limited = await cli(['keys', 'rate-limit', '--key-id', keyId, '--per-minute', '42', '--json']);
      expect(limited.code).toBe(0);
      const [{ rate }] = await t.app.get(DataSource).query('SELECT rate_limit_per_minute AS rate FROM api_keys WHERE id = $1', [keyId]);
      expect(rate).toBe(42);
    });
  });
});
