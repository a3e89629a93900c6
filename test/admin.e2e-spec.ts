import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Wallet } from 'ethers';
import { adminAuth, createAccount, createTestApp, TestApp } from './support/test-app';
import { testEnv } from './support/test-env';

const run = promisify(execFile);
const ROOT = join(__dirname, '..');

/** The real CLI binary (through ts-node), as an operator runs it. */
async function cli(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(join(ROOT, 'node_modules/.bin/ts-node'), ['--transpile-only', 'src/cli/admin.ts', ...args], {
      cwd: ROOT,
      env: { ...process.env, ...testEnv() },
    });
    return { code: 0, stdout, stderr };
  } catch (err) {
    const e = err as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

describe('admin', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  describe('REST API', () => {
    it('requires the bearer ADMIN_TOKEN', async () => {
      const none = await t.http().post('/admin/accounts').send({ address: Wallet.createRandom().address }).expect(401);
      expect(none.body.error.code).toBe('AUTH_001');
      const wrong = await t.http().get('/admin/accounts/0x0000000000000000000000000000000000000001').set('authorization', 'Bearer wrong').expect(401);
      expect(wrong.body.error.code).toBe('AUTH_001');
    });

    it('creates, credits, limits and shows accounts', async () => {
      const { address } = await createAccount(t, 1.5);
      const credited = await t.http().post(`/admin/accounts/${address}/credit`).set(adminAuth).send({ usd: 2.25 }).expect(200);
      expect(credited.body.data.availableBalance).toBe(3.75);
      const limited = await t.http().patch(`/admin/accounts/${address}/limits`).set(adminAuth).send({ perTxLimit: 5, dailyLimit: 20, maxRetries: 1, disabledChainIds: [84532] }).expect(200);
      expect(limited.body.data.userConfig).toMatchObject({ perTxLimit: 5, dailyLimit: 20, maxRetries: 1, disabledChainIds: [84532] });
      const audit = await t.http().get(`/admin/accounts/${address}/audit`).set(adminAuth).expect(200);
      expect(audit.body.data).toMatchObject({ reconciles: true, availableMicro: '3750000' });
    });

    it('rejects bad input with 400s and a duplicate account', async () => {
      const bad = await t.http().post('/admin/accounts').set(adminAuth).send({ address: 'nope' }).expect(400);
      expect(bad.body.error.code).toBe('USER_003');
      const negative = await t.http().post('/admin/accounts').set(adminAuth).send({ address: Wallet.createRandom().address, creditUsd: -1 }).expect(400);
      expect(negative.body.error.code).toBe('VALIDATION_004');
      const { address } = await createAccount(t);
      const dup = await t.http().post('/admin/accounts').set(adminAuth).send({ address }).expect(400);
      expect(dup.body.error.code).toBe('VALIDATION_001');
      const limits = await t.http().patch(`/admin/accounts/${address}/limits`).set(adminAuth).send({ maxRetries: 'lots' }).expect(400);
      expect(limits.body.error.code).toBe('VALIDATION_004');
      const missing = await t.http().post('/admin/accounts/0x00000000000000000000000000000000000000ab/credit').set(adminAuth).send({ usd: 1 }).expect(404);
      expect(missing.body.error.code).toBe('USER_001');
      const revoke = await t.http().post('/admin/keys/revoke').set(adminAuth).send({ key: 'rk_unknown-key' }).expect(404);
      expect(revoke.body.error.code).toBe('RESOURCE_001');
    });

    it('does not exist when ADMIN_TOKEN is unset', async () => {
      const off = await createTestApp({ env: { ADMIN_TOKEN: '' } });
      try {
        const res = await off.http().post('/admin/accounts').set(adminAuth).send({ address: Wallet.createRandom().address }).expect(404);
        expect(res.body.error.code).toBe('RESOURCE_001');
      } finally {
        await off.close();
      }
    });
  });

  describe('CLI', () => {
    it('creates an account whose key works, credits it, sets limits, and revokes the key', async () => {
      const address = Wallet.createRandom().address;
      const created = await cli(['accounts', 'create', '--address', address, '--credit-usd', '12.5', '--json']);
      expect(created.code).toBe(0);
      const { userId, apiKey } = JSON.parse(created.stdout);
      expect(apiKey).toMatch(/^rk_/);

      const user = await t.http().get('/api/user').query({ address }).expect(200);
      expect(user.body.data).toMatchObject({ userId, availableBalance: 12.5 });

      expect((await cli(['accounts', 'credit', '--address', address, '--usd', '0.5'])).code).toBe(0);
      const limits = await cli(['accounts', 'limits', '--address', address, '--per-tx', '7', '--breaker', 'false', '--json']);
      expect(JSON.parse(limits.stdout).userConfig).toMatchObject({ perTxLimit: 7, circuitBreakerEnabled: false });
      const shown = await t.http().get('/api/user').query({ address }).expect(200);
      expect(shown.body.data.availableBalance).toBe(13);

      const key2 = await cli(['keys', 'create', '--address', address, '--json']);
      expect(JSON.parse(key2.stdout).apiKey).toMatch(/^rk_/);
      expect((await cli(['keys', 'revoke', '--key', apiKey])).code).toBe(0);
      const again = await cli(['keys', 'revoke', '--key', apiKey]);
      expect(again.code).toBe(1);
      expect(again.stderr).toContain('RESOURCE_001');

      const keys = JSON.parse((await cli(['keys', 'list', '--address', address, '--json'])).stdout);
      expect(keys).toHaveLength(2);
      expect(keys.map((k: { prefix: string }) => k.prefix).every((p: string) => apiKey.startsWith(p) || JSON.parse(key2.stdout).apiKey.startsWith(p))).toBe(true);
      expect(keys.filter((k: { revokedAt: string | null }) => k.revokedAt !== null)).toHaveLength(1);
      expect(JSON.stringify(keys)).not.toContain(apiKey);

      const listed = JSON.parse((await cli(['accounts', 'list', '--limit', '500', '--json'])).stdout);
      expect(listed.find((a: { userId: string }) => a.userId === userId)).toMatchObject({ availableBalance: 13, userConfig: { perTxLimit: 7 } });
    }, 180_000);

    it('exits 2 with usage on bad input', async () => {
      const res = await cli(['accounts', 'limits', '--address', '0x0000000000000000000000000000000000000001', '--per-tx', 'abc']);
      expect(res.code).toBe(2);
      expect(res.stderr).toContain("option '--per-tx <n>' argument 'abc' is invalid. must be a number");
      expect(res.stderr).toContain('Usage: relay-admin accounts limits');
      expect((await cli(['frobnicate'])).code).toBe(2);
      // Strict: a mistyped flag or a stray argument is refused, never ignored.
      const typo = await cli(['accounts', 'credit', '--address', '0x0000000000000000000000000000000000000001', '--usd', '5', '--dry-run']);
      expect([typo.code, typo.stderr]).toEqual([2, expect.stringContaining("unknown option '--dry-run'")]);
      const stray = await cli(['keys', 'list', '--address', '0x0000000000000000000000000000000000000001', 'extra']);
      expect([stray.code, stray.stderr]).toEqual([2, expect.stringContaining('too many arguments')]);
      const missing = await cli(['accounts', 'credit', '--usd', '5']);
      expect([missing.code, missing.stderr]).toEqual([2, expect.stringContaining("required option '--address <addr>' not specified")]);
    }, 180_000);

    it('prints help for the program and each command', async () => {
      const help = await cli(['--help']);
      expect(help.code).toBe(0);
      expect(help.stdout).toMatch(/accounts\s+accounts and their balances and limits/);
      const list = await cli(['accounts', 'list', '--help']);
      expect([list.code, list.stdout]).toEqual([0, expect.stringContaining('--limit <n>')]);
    }, 180_000);
  });
});
