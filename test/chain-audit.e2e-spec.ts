import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { hexlify, randomBytes } from 'ethers';
import { DataSource } from 'typeorm';
import { mintCall, randomAddress, testChain, token } from './support/chain-fixtures';
import { adminAuth, createAccount, createTestApp, TestApp } from './support/test-app';
import { testEnv } from './support/test-env';

const run = promisify(execFile);
const ROOT = join(__dirname, '..');

/** The chain-aware audit: a clean run reports nothing; a planted wrong cost and a planted wrong hash are both reported, by the endpoint and the CLI. */
describe('chain-aware audit', () => {
  let t: TestApp;
  const chain = testChain(31337);

  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('reports nothing on a clean run, then exactly the planted cost and hash mismatches', async () => {
    const since = new Date(Date.now() - 1000).toISOString();
    const { apiKey, address } = await createAccount(t, 50);
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      const res = await t.http().post('/api/submit-tx-sync').set('api-key', apiKey).send({ tx: { chainId: 31337, to: token(chain, 'USDC'), callData: mintCall(randomAddress()) }, timeoutMs: 15000 }).expect(200);
      expect(res.body.data.status).toBe('EXECUTED');
      ids.push(res.body.data.id);
    }
    const audit = () => t.http().get('/admin/audit').query({ chainId: 31337, since }).set(adminAuth).expect(200).then((r) => r.body.data);
    const clean = await audit();
    expect(clean).toMatchObject({ ok: true, mismatches: [], truncated: false });
    expect(clean.examined).toBeGreaterThanOrEqual(3);

    const db = t.app.get(DataSource);
    const [{ cost }] = await db.query('SELECT cost_micro::text AS cost FROM relay_transactions WHERE id = $1', [ids[0]]);
    await db.query('UPDATE relay_transactions SET cost_micro = cost_micro + 1 WHERE id = $1', [ids[0]]);
    const wrongHash = hexlify(randomBytes(32));
    await db.query('UPDATE relay_transactions SET execution_tx_hash = $2 WHERE id = $1', [ids[1], wrongHash]);

    const planted = await audit();
    expect(planted.ok).toBe(false);
    expect(planted.mismatches).toHaveLength(2);
    expect(planted.mismatches).toEqual(
      expect.arrayContaining([
        { txId: ids[0], chainId: 31337, kind: 'charge_mismatch', expected: (BigInt(cost) + 1n).toString(), actual: cost },
        expect.objectContaining({ txId: ids[1], chainId: 31337, kind: 'hash_not_mined', expected: `${wrongHash} mined` }),
      ]),
    );

    const cli = await run(join(ROOT, 'node_modules/.bin/ts-node'), ['--transpile-only', 'src/cli/admin.ts', 'accounts', 'audit', '--address', address, '--json'], { cwd: ROOT, env: { ...process.env, ...testEnv() } });
    const out = JSON.parse(cli.stdout);
    expect(out.reconciles).toBe(true);
    expect(out.chain.mismatches.map((m: { txId: string; kind: string }) => [m.txId, m.kind]).sort()).toEqual([[ids[0], 'charge_mismatch'], [ids[1], 'hash_not_mined']].sort());
  }, 90_000);

  it('refuses bad filters with 400 and a catalog code', async () => {
    expect((await t.http().get('/admin/audit').query({ chainId: 'abc' }).set(adminAuth).expect(400)).body.error.code).toBe('VALIDATION_003');
    expect((await t.http().get('/admin/audit').query({ chainId: 999999 }).set(adminAuth).expect(400)).body.error.code).toBe('VALIDATION_003');
    expect((await t.http().get('/admin/audit').query({ since: 'yesterday' }).set(adminAuth).expect(400)).body.error.code).toBe('VALIDATION_001');
    expect((await t.http().get('/admin/audit').expect(401)).body.error.code).toBe('AUTH_001');
  });
});
