import { spawn } from 'node:child_process';
import { readdirSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { Wallet } from 'ethers';
import { provider, testChain } from './support/chain-fixtures';
import { adminAuth, createTestApp, TestApp } from './support/test-app';
import { TEST_ADMIN_TOKEN, TEST_STATE_DIR } from './support/test-env';

const ROOT = join(__dirname, '..');
const EXAMPLES_DIR = join(ROOT, 'examples');

/** Every example and a line its output must contain: each one runs as a user would run it, in its own process. */
const EXAMPLES: Record<string, RegExp> = {
  'relay.ts': /^EXECUTED 0x[0-9a-f]{64} cost [0-9.]+ USD$/m,
  'relay-sync.ts': /^EXECUTED 0x[0-9a-f]{64} gasUsed \d+ cost [0-9.]+ USD$/m,
  'swap.ts': /^swap 0x[0-9a-f]{64}: completed/m,
  'gasless-swap.ts': /^swap \S+ executed 0x[0-9a-f]{64}; the wallet now holds [1-9]\d* WETH wei$/m,
  'vault.ts': /^USDC back in the wallet: [1-9]\d*; positions left: 0$/m,
  'login-webhooks.ts': /-> EXECUTED, signature valid, auth Bearer example-bearer-token$/m,
  'socket.ts': /-> EXECUTED 0x[0-9a-f]{64}/m,
  'policies.ts': /^second mint for the same user refused: 403 TRANSACTION_010 end_user_limit$/m,
  'cross-chain-swap.ts': /^cross-chain swap 0x[0-9a-f]{64}: completed, filled by 0x[0-9a-f]{64}; the wallet holds [1-9]\d* USDC units on 84532/m,
};

function runExample(file: string, env: Record<string, string>): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['-r', 'ts-node/register/transpile-only', '-r', 'tsconfig-paths/register', join(EXAMPLES_DIR, file)], {
      cwd: ROOT,
      env: { ...process.env, ...env, TS_NODE_PROJECT: join(EXAMPLES_DIR, 'tsconfig.json') },
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('exit', (code) => resolve({ code, output }));
  });
}

/** CI runs every script of examples/ against the integration tier's stack (its chains, database and Redis, and an API on a free port). */
describe('examples/', () => {
  let t: TestApp;
  let env: Record<string, string>;
  let heartbeat: NodeJS.Timeout;
  const chain = testChain(31337);

  beforeAll(async () => {
    // The demo account also pays the bridge filler's transactions (as on `npm start`).
    const demo = Wallet.createRandom();
    t = await createTestApp({
      env: { SETTLEMENT_DELEGATE_31337: chain.contracts.settlementDelegate, VAULT_SAMPLE_INTERVAL_MS: '300', VAULT_APY_MIN_SPAN_SECONDS: '3', BRIDGE_ACCOUNT: demo.address, BRIDGE_WATCH_INTERVAL_MS: '300' },
    });
    await t.app.listen(0);
    const apiUrl = `http://127.0.0.1:${(t.app.getHttpServer().address() as AddressInfo).port}`;
    // The demo wallet of the manifest: an account with credit, and ETH for the swap it sends itself.
    await provider(chain).send('anvil_setBalance', [demo.address, '0x56BC75E2D63100000']);
    const res = await t.http().post('/admin/accounts').set(adminAuth).send({ address: demo.address, creditUsd: 500 }).expect(201);
    const manifest = { apiUrl, adminToken: TEST_ADMIN_TOKEN, chains: [testChain(31337), testChain(84532)], demo: { address: demo.address, privateKey: demo.privateKey, apiKey: res.body.data.apiKey } };
    const manifestPath = join(TEST_STATE_DIR, 'examples-devnet.json');
    writeFileSync(manifestPath, JSON.stringify(manifest, null, 2));
    env = { EXAMPLES_DEVNET: manifestPath };
    // As on `npm start`: empty blocks keep block time moving, so vault share prices are sampled and APYs exist.
    heartbeat = setInterval(() => void provider(chain).send('evm_mine', []).catch(() => undefined), 500);
  });
  afterAll(async () => {
    clearInterval(heartbeat);
    await t.close();
  });

  it('has an expectation for every script in examples/', () => {
    expect(readdirSync(EXAMPLES_DIR).filter((f) => f.endsWith('.ts')).sort()).toEqual(Object.keys(EXAMPLES).sort());
  });

  it.each(Object.entries(EXAMPLES))('%s runs green', async (file, expected) => {
    const { code, output } = await runExample(file, env);
    if (code !== 0) console.error(`${file} exited with ${code}:\n${output}`);
    expect(code).toBe(0);
    expect(output).toMatch(expected);
  }, 180_000);
});
