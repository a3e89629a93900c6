import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Wallet } from 'ethers';
import { DataSource } from 'typeorm';
import { adminAuth, createAccount, createTestApp, ISO_MS, TestApp } from './support/test-app';
import { productionEnv, TEST_ADMIN_TOKEN, testEnv } from './support/test-env';

const run = promisify(execFile);
const ROOT = join(__dirname, '..');
const APPROVAL_SECRET = 'whsec_' + Buffer.from('approval-secret-0123456789').toString('base64');
const ADMIN_ACTOR = `admin:${createHash('sha256').update(TEST_ADMIN_TOKEN).digest('hex').slice(0, 12)}`;

async function cli(args: string[], env: Record<string, string> = {}): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(join(ROOT, 'node_modules/.bin/ts-node'), ['--transpile-only', 'src/cli/admin.ts', ...args], { cwd: ROOT, env: { ...process.env, ...testEnv(), ...env } });
    return { code: 0, stdout, stderr };
  } catch (err) {
    const e = err as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

type Entry = Record<string, unknown> & { id: string; action: string; target: string | null; summary: Record<string, unknown> | null };

describe('admin accountability', () => {
  let t: TestApp;
  const auditLog = async (query: Record<string, string | number> = {}) => (await t.http().get('/admin/audit-log').query(query).set(adminAuth).expect(200)).body.data as { entries: Entry[]; nextCursor: string | null };

  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('records every mutating admin request: who, what, on what, from where, when and how it ended; no secret, no read', async () => {
    const { address, apiKey } = await createAccount(t, 1);
    await t.http().post(`/admin/accounts/${address}/credit`).set(adminAuth).send({ usd: 2.5 }).expect(200);
    await t.http().patch(`/admin/accounts/${address}/limits`).set(adminAuth)
      .send({ perTxLimit: 3, approvalWebhook: { url: 'https://ops:hunter2@approver.example.com/hook?token=abc', secret: APPROVAL_SECRET } })
      .expect(200);
    await t.http().patch(`/admin/accounts/${address}/limits`).set(adminAuth).send({ maxRetries: 'lots' }).expect(400);
    await t.http().get(`/admin/accounts/${address}`).set(adminAuth).expect(200);
    await t.http().post('/admin/keys/revoke').set(adminAuth).send({ key: apiKey }).expect(200);

    const { entries } = await auditLog({ limit: 5 });
    expect(entries.map((e) => [e.action, e.target?.toLowerCase(), e.status, e.errorCode])).toEqual([
      ['POST /admin/keys/revoke', `key ${apiKey.slice(0, 10).toLowerCase()}…`, 200, null],
      ['PATCH /admin/accounts/:address/limits', address, 400, 'VALIDATION_004'],
      ['PATCH /admin/accounts/:address/limits', address, 200, null],
      ['POST /admin/accounts/:address/credit', address, 200, null],
      ['POST /admin/accounts', address, 201, null],
    ]);
    for (const e of entries) {
      expect(e).toMatchObject({ actor: ADMIN_ACTOR, source: 'rest', ip: expect.stringMatching(/127\.0\.0\.1$/), at: expect.stringMatching(ISO_MS), finishedAt: expect.stringMatching(ISO_MS) });
    }
    expect(entries[3].summary).toEqual({ usd: 2.5 });
    expect(entries[2].summary).toEqual({ perTxLimit: 3, approvalWebhook: { url: 'https://approver.example.com/hook?[redacted]', secret: '[redacted]' } });
    expect(entries[0].summary).toEqual({ key: `${apiKey.slice(0, 10)}…` });
    const text = JSON.stringify(entries);
    for (const secret of [apiKey, 'whsec_', 'hunter2', 'token=abc']) expect(text).not.toContain(secret);
  });

  it('records what no column could take (a NUL in the path) instead of failing the request', async () => {
    const res = await t.http().post('/admin/accounts/a%00b/credit').set(adminAuth).send({ usd: 1 }).expect(400);
    expect(res.body.error.code).toBe('USER_003');
    const [entry] = (await auditLog({ limit: 1 })).entries;
    expect(entry).toMatchObject({ action: 'POST /admin/accounts/:address/credit', target: 'a\ufffdb', status: 400, errorCode: 'USER_003' });
  });

  it('pages newest first with the cursor', async () => {
    const { address } = await createAccount(t);
    for (const usd of [1, 2, 3]) await t.http().post(`/admin/accounts/${address}/credit`).set(adminAuth).send({ usd }).expect(200);
    const first = await auditLog({ limit: 2 });
    expect(first.entries.map((e) => e.summary)).toEqual([{ usd: 3 }, { usd: 2 }]);
    const second = await auditLog({ limit: 2, cursor: first.nextCursor! });
    expect(second.entries.map((e) => [e.summary, e.action])).toEqual([[{ usd: 1 }, 'POST /admin/accounts/:address/credit'], [{ address: expect.any(String), creditUsd: 100 }, 'POST /admin/accounts']]);
    expect(String(second.entries[1].summary!.address).toLowerCase()).toBe(address);
    expect(Number(second.entries[0].id)).toBeLessThan(Number(first.entries[1].id));
    expect((await t.http().get('/admin/audit-log').query({ cursor: 'x' }).set(adminAuth).expect(400)).body.error.code).toBe('VALIDATION_004');
    expect((await t.http().get('/admin/audit-log').expect(401)).body.error.code).toBe('AUTH_001');
  });

  it('records the CLI as cli:<OS user>, with its outcome, in the same log', async () => {
    const { address } = await createAccount(t);
    const ok = await cli(['accounts', 'credit', '--address', address, '--usd', '4', '--json']);
    expect(ok.code).toBe(0);
    const missing = Wallet.createRandom().address;
    const refused = await cli(['accounts', 'credit', '--address', missing, '--usd', '1', '--json']);
    expect(refused.code).toBe(1);

    const { entries } = await auditLog({ limit: 2 });
    expect(entries).toEqual([
      expect.objectContaining({ source: 'cli', actor: expect.stringMatching(/^cli(:.+)?$/), action: 'accounts credit', target: missing, ip: null, status: 404, errorCode: 'USER_001' }),
      expect.objectContaining({ source: 'cli', action: 'accounts credit', target: address, summary: { address, usd: 4 }, ip: null, status: 200, errorCode: null }),
    ]);
  });
});

describe('approval webhooks are https outside the local stack', () => {
  const limits = (t: TestApp, address: string, url: string) =>
    t.http().patch(`/admin/accounts/${address}/limits`).set(adminAuth).send({ approvalWebhook: { url, secret: APPROVAL_SECRET } });
  const storedUrl = async (t: TestApp, address: string) =>
    (await t.app.get(DataSource).query('SELECT approval_webhook_url AS url FROM accounts WHERE address = $1', [address.toLowerCase()]))[0]?.url ?? null;

  it('production refuses an http approval webhook with 400 VALIDATION_001 (REST and CLI) and keeps https', async () => {
    const t = await createTestApp({ env: productionEnv() });
    try {
      const { address } = await createAccount(t);
      const refused = await limits(t, address, 'http://approver.example.com/hook').expect(400);
      expect(refused.body).toMatchObject({ success: false, error: { code: 'VALIDATION_001', message: expect.stringMatching(/https/) } });
      expect(await storedUrl(t, address)).toBeNull();
      const viaCli = await cli(['accounts', 'limits', '--address', address, '--approval-webhook', 'http://approver.example.com/hook', '--approval-secret', APPROVAL_SECRET], productionEnv());
      expect(viaCli.code).toBe(1);
      expect(viaCli.stderr).toMatch(/VALIDATION_001: approvalWebhook.url must be https/);
      expect(await storedUrl(t, address)).toBeNull();

      await limits(t, address, 'https://approver.example.com/hook').expect(200);
      expect(await storedUrl(t, address)).toBe('https://approver.example.com/hook');
    } finally {
      await t.close();
    }
  });

  it('allows http with APPROVAL_WEBHOOK_ALLOW_HTTP in production, and in test and development', async () => {
    for (const env of [{ ...productionEnv(), APPROVAL_WEBHOOK_ALLOW_HTTP: 'true' }, { NODE_ENV: 'test' }, { NODE_ENV: 'development' }]) {
      const t = await createTestApp({ env });
      try {
        const { address } = await createAccount(t);
        await limits(t, address, 'http://127.0.0.1:9/approve').expect(200);
        expect(await storedUrl(t, address)).toBe('http://127.0.0.1:9/approve');
      } finally {
        await t.close();
      }
    }
  });
});
