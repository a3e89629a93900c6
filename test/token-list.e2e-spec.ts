import { execFile } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { ContractFactory, parseEther, toBeHex, Wallet } from 'ethers';
import { loadArtifacts } from '../scripts/devnet/compile';
import { provider, testChain, token } from './support/chain-fixtures';
import { createAccount, createTestApp } from './support/test-app';
import { TEST_CHAINS_FILE, TEST_STATE_DIR, testEnv } from './support/test-env';

const run = promisify(execFile);
const ROOT = join(__dirname, '..');
const chain = testChain(31337);

function listOf(tokens: object[]): object {
  return { name: 'Spec list', timestamp: '2026-11-27T00:00:00.000Z', version: { major: 1, minor: 0, patch: 0 }, tokens };
}

/** The test chains file with chain 31337's `tokenList` set to a file holding `list`. */
function chainsFileWithList(name: string, list: object): string {
  const listPath = join(TEST_STATE_DIR, `tokenlist-${name}.json`);
  writeFileSync(listPath, JSON.stringify(list));
  const file = JSON.parse(readFileSync(TEST_CHAINS_FILE, 'utf8'));
  // A path relative to the chains file's folder.
  file.chains.find((c: { chainId: number }) => c.chainId === 31337).tokenList = `tokenlist-${name}.json`;
  const path = join(TEST_STATE_DIR, `chains-tokenlist-${name}.json`);
  writeFileSync(path, JSON.stringify(file));
  return path;
}

describe('token lists (Uniswap token-lists schema) in the chains file', () => {
  it("a list's tokens of the chain join the catalog, with logoURI as logoUrl; configured entries win; other chains' are left out", async () => {
    const rpc = provider(chain);
    const wallet = Wallet.createRandom().connect(rpc);
    await rpc.send('anvil_setBalance', [wallet.address, toBeHex(parseEther('1'))]);
    const artifact = (await loadArtifacts({ stateDir: TEST_STATE_DIR })).MintableERC20;
    const deployed = await new ContractFactory(artifact.abi, artifact.bytecode, wallet).deploy('Listed Token', 'LST', 12);
    await deployed.waitForDeployment();
    const listed = await deployed.getAddress();
    const usdc = token(chain, 'USDC');
    const path = chainsFileWithList('good', listOf([
      { chainId: 31337, address: listed, name: 'Listed Token', symbol: 'LST', decimals: 12, logoURI: 'https://example.com/lst.png' },
      { chainId: 31337, address: usdc, name: 'Renamed by the list', symbol: 'USDC', decimals: 6, logoURI: 'https://example.com/usdc.png' },
      { chainId: 1, address: '0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48', name: 'USD Coin', symbol: 'USDC', decimals: 6 },
    ]));
    const t = await createTestApp({ env: { CHAINS_FILE: path } });
    try {
      const { apiKey } = await createAccount(t);
      const res = await t.http().get('/tokens').set('api-key', apiKey).query({ chain_id: 31337 }).expect(200);
      const tokens = res.body.data as Array<{ address: string; symbol: string; name: string; decimals: number; logoUrl: string }>;
      expect(tokens.find((x) => x.address === listed)).toEqual({ address: listed, chainId: 31337, symbol: 'LST', name: 'Listed Token', decimals: 12, logoUrl: 'https://example.com/lst.png' });
      expect(tokens.find((x) => x.address === usdc)?.name).toBe('USD Coin');
      expect(tokens.filter((x) => x.address.toLowerCase() === '0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48')).toEqual([]);
    } finally {
      await t.close();
    }
  });

  async function start(chainsFile: string): Promise<{ code: number; stderr: string }> {
    try {
      await run(join(ROOT, 'node_modules/.bin/ts-node'), ['--transpile-only', 'src/main.ts'], {
        cwd: ROOT,
        env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...testEnv(), CHAINS_FILE: chainsFile, PORT: '0', APP_ROLE: 'api' },
        timeout: 60_000,
      });
      return { code: 0, stderr: '' };
    } catch (err) {
      const e = err as { code: number; stderr: string };
      return { code: e.code, stderr: e.stderr };
    }
  }

  it('a list with a bad entry stops startup with a message naming the list and the entry', async () => {
    const path = chainsFileWithList('bad', listOf([
      { chainId: 31337, address: token(chain, 'DAI'), name: 'Dai', symbol: 'DAI', decimals: 18 },
      { chainId: 31337, address: '0x1234', name: 'Broken', symbol: 'BRK', decimals: 300 },
    ]));
    const res = await start(path);
    expect(res.code).toBe(1);
    expect(res.stderr).toContain(`CHAINS_FILE ${path}: chain 31337 tokenList tokenlist-bad.json is not a valid token list:`);
    expect(res.stderr).toMatch(/\/tokens\/1\/address must match pattern/);
    expect(res.stderr).toMatch(/\/tokens\/1\/decimals must be <= 255/);
  });

  it('an unreadable list stops startup naming it', async () => {
    const file = JSON.parse(readFileSync(TEST_CHAINS_FILE, 'utf8'));
    file.chains[0].tokenList = '/nonexistent/list.json';
    const path = join(TEST_STATE_DIR, 'chains-tokenlist-missing.json');
    writeFileSync(path, JSON.stringify(file));
    const res = await start(path);
    expect(res.code).toBe(1);
    expect(res.stderr).toContain('tokenList /nonexistent/list.json cannot be read as JSON');
  });
});
