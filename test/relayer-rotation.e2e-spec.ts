import { execFile } from 'node:child_process';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { JsonRpcProvider, parseEther, Wallet } from 'ethers';
import { devRelayerAddresses } from '../scripts/local-stack/dev-keys';
import { mintCall, randomAddress, testChain, token } from './support/chain-fixtures';
import { SoftHsm, softHsm, tokenTreasury } from './support/softhsm';
import { adminAuth, createAccount, createTestApp, TestApp } from './support/test-app';
import { testEnv } from './support/test-env';
import { waitForTx } from './support/wait-for-tx';

const REGION = 'hsmrot';
const ROOT = join(__dirname, '..');
const run = promisify(execFile);

async function cli(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(join(ROOT, 'node_modules/.bin/ts-node'), ['--transpile-only', 'src/cli/admin.ts', ...args], { cwd: ROOT, env: { ...process.env, ...testEnv() } });
    return { code: 0, stdout, stderr };
  } catch (err) {
    const e = err as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

/**
 * Live rotation of relayer keys held in a SoftHSM2 token: a retired key takes no new work, its
 * balance on every chain ends on the treasury and it is `retired`; activate brings it back; a
 * key generated in the token later joins its pool without a restart. REST and CLI.
 */
describe('relayer key rotation (token keys)', () => {
  const chains = [testChain(31337), testChain(84532)];
  const rpcs = chains.map((c) => new JsonRpcProvider(c.rpcUrl, c.chainId, { staticNetwork: true, cacheTimeout: -1 }));
  let hsm: SoftHsm;
  let keys: Array<{ label: string; address: string }>;
  let treasury: string;
  let t: TestApp;

  beforeAll(async () => {
    hsm = softHsm();
    keys = [hsm.generate(`relayer-${REGION}-0`), hsm.generate(`relayer-${REGION}-1`)];
    treasury = tokenTreasury(hsm);
    for (const rpc of rpcs) for (const k of keys) await rpc.send('anvil_setBalance', [k.address, '0x' + parseEther('3').toString(16)]);
    t = await createTestApp({ env: { ...hsm.env, RELAY_REGIONS: REGION, RELAY_DEFAULT_REGION: REGION, RELAYER_KEYS_RESCAN_MS: '1000', RELAYER_BALANCE_INTERVAL_MS: '1000' } });
  });
  afterAll(async () => {
    await t.close();
    for (const rpc of rpcs) rpc.destroy();
  });

  const rows = async () => (await t.http().get('/admin/relayers').set(adminAuth).expect(200)).body.data as Array<{ address: string; chainId: number; state: string; signer: string; balanceWei: string }>;
  /** The wallet monitor's last measure of a key on chain 31337 (what decides whether it takes work). */
  const monitored = async (address: string) => {
    const chainsSeen = (await t.http().get('/admin/health').set(adminAuth).expect(200)).body.data.checks.chains as Array<{ chainId: number; relayers?: { keys: Array<{ region: string; address: string; state: string; balanceWei: string | null }> } }>;
    return chainsSeen.find((c) => c.chainId === 31337)?.relayers?.keys.find((k) => k.address === address);
  };
  const stateOf = async (address: string) => (await rows()).find((r) => r.address === address)?.state;
  const relay = async (apiKey: string, n: number) => {
    const ids: string[] = [];
    for (let i = 0; i < n; i++) {
      const res = await t.http().post('/api/submit-tx').set('api-key', apiKey).send({ chainId: 31337, to: token(chains[0], 'USDC'), callData: mintCall(randomAddress()) }).expect(201);
      ids.push(res.body.data.txId);
    }
    const senders: string[] = [];
    for (const id of ids) {
      const tx = await waitForTx(t, id);
      expect(tx.status).toBe('EXECUTED');
      senders.push((await rpcs[0].getTransaction(tx.executionTxHash as string))!.from);
    }
    return senders;
  };

  it('retire: no new work for the key, its balance on every chain goes to the treasury (less the sweep gas), then retired', async () => {
    const { apiKey } = await createAccount(t, 50);
    const [retiring, staying] = keys.map((k) => k.address);
    const before = await Promise.all(rpcs.map((rpc) => rpc.getBalance(treasury)));
    const held = await Promise.all(rpcs.map((rpc) => rpc.getBalance(retiring)));

    const res = await t.http().post(`/admin/relayers/${retiring.toLowerCase()}/retire`).set(adminAuth).expect(200);
    expect(res.body.data).toEqual({ region: REGION, address: retiring, signer: 'pkcs11', state: 'draining' });
    // Every transaction after the retire is signed by the other key.
    expect(new Set(await relay(apiKey, 6))).toEqual(new Set([staying]));

    const until = Date.now() + 40_000;
    while (Date.now() < until && (await stateOf(retiring)) !== 'retired') await new Promise((r) => setTimeout(r, 250));
    expect(await stateOf(retiring)).toBe('retired');
    for (const [i, rpc] of rpcs.entries()) {
      // Its whole balance left it: the transfer paid exactly gasLimit × gasPrice (legacy), the rest is on the treasury.
      expect(await rpc.getBalance(retiring)).toBe(0n);
      const swept = (await rpc.getBalance(treasury)) - before[i];
      expect(swept).toBeGreaterThan(held[i] - parseEther('0.01'));
      expect(swept).toBeLessThan(held[i]);
    }
    // Still no new work once retired, and no top-up of it by the wallet monitor.
    expect(new Set(await relay(apiKey, 2))).toEqual(new Set([staying]));
    expect(await rpcs[0].getBalance(retiring)).toBe(0n);
  }, 120_000);

  it('activate brings it back into the pool; unknown keys are 404 RESOURCE_001, bad addresses 400', async () => {
    const [key] = keys.map((k) => k.address);
    await rpcs[0].send('anvil_setBalance', [key, '0x' + parseEther('3').toString(16)]);
    const res = await t.http().post(`/admin/relayers/${key}/activate`).set(adminAuth).expect(200);
    expect(res.body.data.state).toBe('active');
    // The wallet monitor measured it empty while retired: it takes work again once it sees the new balance.
    await new Promise((r) => setTimeout(r, 2_500));
    const { apiKey } = await createAccount(t, 20);
    expect(await relay(apiKey, 4)).toContain(key);

    const unknown = await t.http().post(`/admin/relayers/${Wallet.createRandom().address}/retire`).set(adminAuth).expect(404);
    expect(unknown.body.error.code).toBe('RESOURCE_001');
    await t.http().post(`/admin/relayers/${Wallet.createRandom().address}/activate`).set(adminAuth).expect(404);
    const bad = await t.http().post('/admin/relayers/0x1234/retire').set(adminAuth).expect(400);
    expect(bad.body.error.code).toBe('VALIDATION_001');
    await t.http().post(`/admin/relayers/${key}/retire`).expect(401);
    // Both are in the admin audit log.
    const log = (await t.http().get('/admin/audit-log').set(adminAuth).expect(200)).body.data.entries as unknown[];
    expect(log).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ action: 'POST /admin/relayers/:address/retire', target: key.toLowerCase(), status: 200 }),
        expect.objectContaining({ action: 'POST /admin/relayers/:address/activate', target: key, status: 200 }),
      ]),
    );
  }, 60_000);

  it('a key generated in the token later joins its pool without a restart', async () => {
    const added = hsm.generate(`relayer-${REGION}-2`);
    // As an operator's new key would be, it is in the token before it holds anything: the wallet
    // monitor may measure it empty (no work for it), and it takes work once a pass sees it funded.
    await new Promise((r) => setTimeout(r, 1_500));
    const funded = '0x' + parseEther('3').toString(16);
    await rpcs[0].send('anvil_setBalance', [added.address, funded]);
    const until = Date.now() + 10_000;
    while (Date.now() < until && (await monitored(added.address))?.balanceWei !== BigInt(funded).toString()) await new Promise((r) => setTimeout(r, 200));
    expect(await monitored(added.address)).toMatchObject({ region: REGION, state: 'ok', balanceWei: BigInt(funded).toString() });
    expect((await rows()).find((r) => r.address === added.address)).toMatchObject({ signer: 'pkcs11', state: 'active' });
    const { apiKey } = await createAccount(t, 20);
    expect(await relay(apiKey, 6)).toContain(added.address);
  }, 60_000);

  it('CLI: relayers list, retire and activate (RESOURCE_001 for an unknown key)', async () => {
    const key = keys[1].address;
    const list = await cli(['relayers', 'list', '--json']);
    expect(list.code).toBe(0);
    expect(JSON.parse(list.stdout)).toEqual(expect.arrayContaining([expect.objectContaining({ address: key, region: REGION, signer: 'pkcs11', state: 'active' })]));
    const retired = await cli(['relayers', 'retire', '--address', key, '--json']);
    expect(retired.code).toBe(0);
    expect(JSON.parse(retired.stdout)).toMatchObject({ address: key, state: 'draining' });
    const back = await cli(['relayers', 'activate', '--address', key, '--json']);
    expect(JSON.parse(back.stdout)).toMatchObject({ address: key, state: 'active' });
    const unknown = await cli(['relayers', 'retire', '--address', Wallet.createRandom().address]);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('RESOURCE_001');
  }, 90_000);
});

describe('config reload (SIGHUP): a larger RELAYER_KEYS_PER_REGION adds mnemonic keys without a restart', () => {
  it('the pools grow from one key per region to two', async () => {
    const file = join(ROOT, '.local', 'test', `reload-${process.pid}.env`);
    writeFileSync(file, 'RELAYER_KEYS_PER_REGION=1\n');
    const t = await createTestApp({ env: { RELAYER_KEYS_PER_REGION: '1', RELAYER_RELOAD_ENV_FILE: file } });
    try {
      const addresses = async () => new Set(((await t.http().get('/admin/relayers').set(adminAuth).expect(200)).body.data as Array<{ address: string; signer: string }>).map((r) => r.address));
      const before = await addresses();
      expect(before.size).toBe(3);
      writeFileSync(file, '# reloaded\nRELAYER_KEYS_PER_REGION=2\n');
      // The signal's event, as the process receives it (SIGHUP is the reload, not a shutdown).
      process.emit('SIGHUP', 'SIGHUP');
      const until = Date.now() + 5_000;
      while (Date.now() < until && (await addresses()).size < 6) await new Promise((r) => setTimeout(r, 100));
      const after = await addresses();
      expect(after.size).toBe(6);
      for (const a of before) expect(after.has(a)).toBe(true);
      expect([...after]).toEqual(expect.arrayContaining(devRelayerAddresses(3, 2)));
    } finally {
      await t.close();
      rmSync(file, { force: true });
    }
  });
});
