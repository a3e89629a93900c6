import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { testEnv } from './support/test-env';

const run = promisify(execFile);
const ROOT = join(__dirname, '..');

async function start(env: Record<string, string>): Promise<{ code: number; stderr: string }> {
  try {
    await run(join(ROOT, 'node_modules/.bin/ts-node'), ['--transpile-only', 'src/main.ts'], {
      cwd: ROOT,
      // No .env lookups from the developer's checkout: only what the test passes.
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env },
      timeout: 30_000,
    });
    return { code: 0, stderr: '' };
  } catch (err) {
    const e = err as { code: number; stderr: string };
    return { code: e.code, stderr: e.stderr };
  }
}

describe('startup configuration', () => {
  it('a missing variable stops the process with a message naming it', async () => {
    const { DATABASE_URL: _omit, ...env } = testEnv();
    const res = await start({ ...env, PORT: '0' });
    expect(res.code).toBe(1);
    expect(res.stderr).toMatch(/Invalid configuration:[\s\S]*DATABASE_URL/);
  });

  it('a bad CHAINS_FILE stops the process naming the file', async () => {
    const res = await start({ ...testEnv(), CHAINS_FILE: '/nonexistent/chains.json', PORT: '0' });
    expect(res.code).toBe(1);
    expect(res.stderr).toContain('CHAINS_FILE /nonexistent/chains.json');
  });

  it('AUTH_MNEMONIC equal to RELAYER_MNEMONIC stops the process: a derivation path would name relayer keys', async () => {
    const env = testEnv();
    const res = await start({ ...env, AUTH_MNEMONIC: env.RELAYER_MNEMONIC, PORT: '0' });
    expect(res.code).toBe(1);
    expect(res.stderr).toMatch(/Invalid configuration:[\s\S]*AUTH_MNEMONIC: must differ from RELAYER_MNEMONIC/);
  });

  it('a treasury path that is a relayer key stops the process', async () => {
    const res = await start({ ...testEnv(), RELAYER_TREASURY_PATH: "m/44'/60'/1'/0/0", PORT: '0' });
    expect(res.code).toBe(1);
    expect(res.stderr).toContain("RELAYER_TREASURY_PATH: m/44'/60'/1'/0/0 is relayer key 0 of region 1");
  });

  it('in production any treasury path on the relayer mnemonic stops the process', async () => {
    const res = await start({ ...testEnv(), NODE_ENV: 'production', PUBLIC_ORIGIN: 'https://relay.example.com', PORT: '0' });
    expect(res.code).toBe(1);
    expect(res.stderr).toContain('RELAYER_TREASURY_PATH: not allowed in production');
  });
});
