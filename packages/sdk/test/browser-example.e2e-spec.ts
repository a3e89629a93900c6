/// <reference lib="dom" />
// The callbacks of page.waitForFunction run in the browser.
import { execFile } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname, join, normalize } from 'node:path';
import { promisify } from 'node:util';
import { Wallet } from 'ethers';
import { launchBrowser, type Browser } from '../../../test/support/browser';
import { mintCall, randomAddress, testChain, token } from '../../../test/support/chain-fixtures';
import { adminAuth, createTestApp, TestApp } from '../../../test/support/test-app';
import { TEST_STATE_DIR } from '../../../test/support/test-env';
import { ensureSdkBuilt, REPO_DIR, SDK_DIR } from './support/build-sdk';

const run = promisify(execFile);
const TYPES: Record<string, string> = { '.html': 'text/html', '.js': 'text/javascript', '.css': 'text/css' };

/** The built example served as static files from its own origin (so every API call is cross-origin, as for a dapp). */
function serveStatic(dir: string): Promise<Server> {
  const server = createServer((req, res) => {
    const path = normalize(new URL(req.url ?? '/', 'http://x').pathname).replace(/^(\.\.[/\\])+/, '');
    try {
      const body = readFileSync(join(dir, path === '/' ? 'index.html' : path));
      res.writeHead(200, { 'content-type': TYPES[extname(path === '/' ? 'index.html' : path)] ?? 'application/octet-stream' });
      res.end(body);
    } catch {
      res.writeHead(404).end();
    }
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

/**
 * packages/sdk/examples/browser bundled by Vite from the built package (its `import` entry),
 * loaded in headless Chromium; the page uses the SDK against the real test app: public chains,
 * wallet login signed by a viem local account, then the account's transactions with the JWT.
 */
describe('SDK browser example (Vite bundle in headless Chromium)', () => {
  let t: TestApp;
  let api: string;
  let site: Server;
  let browser: Browser;
  const outDir = join(TEST_STATE_DIR, 'sdk-browser-example');
  const user = Wallet.createRandom();
  let viteOutput = '';

  beforeAll(async () => {
    await ensureSdkBuilt();
    const vite = await run(process.execPath, [join(REPO_DIR, 'node_modules', 'vite', 'bin', 'vite.js'), 'build', join(SDK_DIR, 'examples', 'browser'), '--outDir', outDir, '--emptyOutDir'], { cwd: REPO_DIR });
    viteOutput = `${vite.stdout}\n${vite.stderr}`;
    t = await createTestApp();
    await t.app.listen(0, '127.0.0.1');
    api = `http://127.0.0.1:${(t.app.getHttpServer().address() as AddressInfo).port}`;
    const created = await t.http().post('/admin/accounts').set(adminAuth).send({ address: user.address, creditUsd: 10 }).expect(201);
    // One transaction of the account, so the page has something to list.
    await t
      .http()
      .post('/api/submit-tx-sync')
      .set('api-key', created.body.data.apiKey)
      .send({ tx: { chainId: 31337, to: token(testChain(31337), 'USDC'), callData: mintCall(randomAddress()) } })
      .expect(200);
    site = await serveStatic(outDir);
    browser = await launchBrowser();
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    await new Promise((resolve) => site?.close(resolve));
    await t?.close();
    rmSync(outDir, { recursive: true, force: true });
  });

  it('Vite bundles the SDK for the browser without externalizing any Node built-in', () => {
    expect(viteOutput).toMatch(/built in/);
    expect(viteOutput).not.toMatch(/externalized for browser compatibility|node:crypto|Buffer is not defined/);
  });

  it('the page signs in with a viem wallet and shows the chains and the account’s transactions', async () => {
    const page = await browser.context.newPage();
    const problems: string[] = [];
    page.on('pageerror', (e) => problems.push(e.message));
    page.on('console', (m) => m.type() === 'error' && problems.push(m.text()));
    const site_ = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
    await page.goto(`${site_}/?api=${encodeURIComponent(api)}&key=${user.privateKey}`);
    await page.waitForFunction(() => (document.querySelector('[data-testid=result]')?.textContent ?? '') !== '', undefined, { timeout: 30_000 });
    const result = await page.textContent('[data-testid=result]');
    const chains = (await t.http().get('/api/supported-chains').expect(200)).body.data as unknown[];
    expect(result).toBe(`Signed in as ${user.address.toLowerCase()}: ${chains.length} chains, 1 recent transactions`);
    expect(await page.locator('[data-testid=chains] li').allTextContents()).toEqual(expect.arrayContaining([expect.stringContaining('(31337)')]));
    expect(problems).toEqual([]);
    await page.close();
  });

  it('an error from the service reaches the page as the SDK’s RelayApiError (an address with no account)', async () => {
    const page = await browser.context.newPage();
    const site_ = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
    await page.goto(`${site_}/?api=${encodeURIComponent(api)}&key=${Wallet.createRandom().privateKey}`);
    await page.waitForFunction(() => (document.querySelector('[data-testid=result]')?.textContent ?? '') !== '', undefined, { timeout: 30_000 });
    expect(await page.getAttribute('[data-testid=result]', 'class')).toBe('error');
    expect(await page.textContent('[data-testid=result]')).toMatch(/^[A-Z]+_\d{3}: /);
    await page.close();
  });
});
