/// <reference lib="dom" />
// The callbacks of page.evaluate / waitForFunction run in the browser.
import { mkdirSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { buildDashboard } from '../scripts/dashboard/build';
import { SignerPool } from '../src/modules/relay';
import { launchBrowser, type Browser } from './support/browser';
import { mintCall, randomAddress, testChain, token } from './support/chain-fixtures';
import { adminAuth, createAccount, createTestApp, TestApp } from './support/test-app';
import { TEST_ADMIN_TOKEN, TEST_CHAINS, TEST_STATE_DIR } from './support/test-env';
import { WebhookReceiver } from './support/webhook-receiver';

const SHOTS = join(__dirname, '..', '.local', 'dashboard');

describe('dashboard: the page in a real browser (chromium)', () => {
  let t: TestApp;
  let url: string;
  let browser: Browser;
  let receiver: WebhookReceiver;
  let consoleProblems: string[] = [];
  const usdc = token(testChain(31337), 'USDC');

  beforeAll(async () => {
    const build = await buildDashboard(join(TEST_STATE_DIR, 'dashboard'), { minify: true });
    t = await createTestApp({ env: { DASHBOARD_DIR: build.outDir } });
    await t.app.listen(0, '127.0.0.1');
    url = `http://127.0.0.1:${(t.app.getHttpServer().address() as AddressInfo).port}`;
    receiver = await WebhookReceiver.start();
    browser = await launchBrowser();
    mkdirSync(SHOTS, { recursive: true });
  });

  afterAll(async () => {
    await browser?.close();
    await receiver?.close();
    await t?.close();
  });

  async function open(): Promise<Page> {
    const page = await browser.context.newPage();
    consoleProblems = [];
    // A CSP violation or a script error is a failure of the page, whatever the test checks.
    page.on('console', (m) => m.type() === 'error' && consoleProblems.push(m.text()));
    page.on('pageerror', (e) => consoleProblems.push(e.message));
    await page.goto(`${url}/dashboard`);
    return page;
  }

  it('serves the page with a strict CSP and its bundle with the same headers', async () => {
    const res = await t.http().get('/dashboard').expect(200);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    const csp = res.headers['content-security-policy'];
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).not.toMatch(/unsafe-inline|unsafe-eval/);
    expect(res.headers['x-frame-options']).toBe('DENY');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    const script = /src="(\/dashboard\/assets\/[^"]+\.js)"/.exec(res.text)?.[1];
    expect(script).toBeDefined();
    const asset = await t.http().get(script!).expect(200);
    expect(asset.headers['content-type']).toMatch(/javascript/);
    expect(asset.headers['content-security-policy']).toBe(csp);
    expect(asset.headers['cache-control']).toContain('immutable');
    const missing = await t.http().get('/dashboard/assets/nope.js').expect(404);
    expect(missing.body.error.code).toBe('RESOURCE_001');
    await t.http().get('/dashboard/assets/..%2Fpackage.json').expect(404);
  });

  it('refuses the operator data without the admin token, in the API and in the page', async () => {
    const account = await createAccount(t, 5);
    for (const path of ['/admin/relayers', '/admin/accounts']) {
      expect((await t.http().get(path).expect(401)).body.error.code).toBe('AUTH_001');
      expect((await t.http().get(path).set('api-key', account.apiKey).expect(401)).body.error.code).toBe('AUTH_001');
    }
    const page = await open();
    await page.fill('[data-testid=login-admin-token]', 'not-the-admin-token-at-all');
    await page.click('[data-testid=login-submit]');
    await page.waitForSelector('[data-testid=login-error]');
    expect(await page.textContent('[data-testid=login-error]')).toContain('AUTH_001');
    expect(await page.$('[data-testid=operator-view]')).toBeNull();
    expect(await page.evaluate(() => Object.keys(sessionStorage).length)).toBe(0);
    await page.close();
  });

  it('team view: balance, a submitted transaction appears and turns EXECUTED live, the spend chart has data, webhooks are listed', async () => {
    const account = await createAccount(t, 100);
    await t.http().post('/api/user/register-webhooks').set('api-key', account.apiKey).send([{ url: receiver.url('/hook'), authType: 'none' }]).expect(200);

    const page = await open();
    await page.fill('[data-testid=login-api-key]', account.apiKey);
    await page.click('[data-testid=login-submit]');
    await page.waitForSelector('[data-testid=team-view]');
    await page.waitForFunction(() => document.querySelector('[data-testid=balance-available]')?.textContent === '$100.00');
    await page.waitForSelector('[data-testid=webhook-row]');
    await page.waitForSelector('[data-testid=live-indicator].on');
    // Marks this document: a reload would lose it.
    await page.evaluate(() => ((window as unknown as { marker: number }).marker = 42));
    expect(await page.evaluate(() => sessionStorage.length)).toBe(1);
    expect(await page.evaluate(() => localStorage.length)).toBe(0);

    const submitted = await t.http().post('/api/submit-tx').set('api-key', account.apiKey).send({ chainId: 31337, to: usdc, callData: mintCall(randomAddress()), label: 'dash' }).expect(201);
    const txId: string = submitted.body.data.txId;
    const row = `[data-testid=tx-row][data-tx-id="${txId}"]`;
    await page.waitForSelector(row, { timeout: 20_000 });
    await page.waitForFunction((sel) => document.querySelector(`${sel} [data-testid=tx-status]`)?.textContent === 'EXECUTED', row, { timeout: 30_000 });
    expect(await page.evaluate(() => (window as unknown as { marker?: number }).marker)).toBe(42);

    // The charge reaches the spend chart and the balance without a reload.
    await page.waitForFunction(() => Number(document.querySelector('[data-testid=spend-chart]')?.getAttribute('data-points')) > 0, undefined, { timeout: 20_000 });
    expect(await page.$('[data-testid=spend-chart] canvas')).not.toBeNull();
    await page.waitForFunction(() => document.querySelector('[data-testid=balance-available]')?.textContent !== '$100.00', undefined, { timeout: 20_000 });
    await page.waitForSelector('[data-testid=delivery-row]', { timeout: 20_000 });

    await page.screenshot({ path: join(SHOTS, 'team.png'), fullPage: true });
    await page.click(row);
    await page.waitForSelector('[data-testid=tx-drawer] .timeline');
    expect(await page.textContent('[data-testid=tx-drawer]')).toContain(txId);
    await page.screenshot({ path: join(SHOTS, 'team-drawer.png') });
    expect(consoleProblems).toEqual([]);
    await page.close();
  });

  it('operator view: every relayer key on every chain with its balance', async () => {
    const page = await open();
    await page.fill('[data-testid=login-admin-token]', TEST_ADMIN_TOKEN);
    await page.click('[data-testid=login-submit]');
    await page.waitForSelector('[data-testid=operator-view]');
    await page.waitForSelector('[data-testid=relayer-row]');

    const expected = t.app.get(SignerPool).poolAddresses();
    const rows = await page.$$eval('[data-testid=relayer-row]', (els) =>
      els.map((el) => ({ address: el.getAttribute('data-address'), chainId: Number(el.getAttribute('data-chain-id')), balance: el.querySelector('[data-testid=relayer-balance]')?.textContent ?? '' })),
    );
    expect(rows).toHaveLength(expected.length * TEST_CHAINS.length);
    expect(new Set(rows.map((r) => r.address))).toEqual(new Set(expected));
    for (const r of rows) expect(r.balance).toMatch(/^[\d,.]+ ETH$/);
    const api = await t.http().get('/admin/relayers').set(adminAuth).expect(200);
    expect(api.body.data.every((w: { balanceWei: string | null }) => w.balanceWei !== null && BigInt(w.balanceWei) > 0n)).toBe(true);

    await page.waitForSelector('[data-testid=chain-health]');
    await page.waitForSelector('[data-testid=account-row]');
    // Two scrapes of /metrics (5 s apart) make the first point of the throughput chart.
    await page.waitForSelector('[data-testid=throughput-chart] canvas', { timeout: 15_000 });
    await page.screenshot({ path: join(SHOTS, 'operator.png'), fullPage: true });
    expect(consoleProblems).toEqual([]);
    await page.close();
  });
});
