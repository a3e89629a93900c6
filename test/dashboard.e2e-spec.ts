/// <reference lib="dom" />
// The callbacks of page.evaluate / waitForFunction run in the browser.
import { mkdirSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { Contract, toUtf8String, Wallet } from 'ethers';
import QRCode from 'qrcode';
import type { Page } from 'playwright-core';
import { buildDashboard } from '../scripts/dashboard/build';
import { SignerPool } from '../src/modules/relay';
import { DepositWatcher } from '../src/modules/funding';
import { launchBrowser, type Browser } from './support/browser';
import { erc20, mintCall, provider, randomAddress, testChain, token } from './support/chain-fixtures';
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

  const syncTx = (apiKey: string, chainId = 31337, label = '') =>
    t
      .http()
      .post('/api/submit-tx-sync')
      .set('api-key', apiKey)
      .send({ tx: { chainId, to: token(testChain(chainId), 'USDC'), callData: mintCall(randomAddress()), label } })
      .expect(200);

  async function open(before?: (page: Page) => Promise<void>): Promise<Page> {
    const page = await browser.context.newPage();
    consoleProblems = [];
    await before?.(page);
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
    // no-cache: revalidated on every load, and unchanged it costs a 304.
    expect(res.headers['cache-control']).toBe('no-cache');
    await t.http().get('/dashboard').set('If-None-Match', res.headers.etag).expect(304);
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
    // Earlier history on the other chain, so the chart and the table show more than the live row.
    await syncTx(account.apiKey, 84532, 'payout');
    await syncTx(account.apiKey, 84532, 'payout');

    const page = await open();
    await page.fill('[data-testid=login-api-key]', account.apiKey);
    await page.click('[data-testid=login-submit]');
    await page.waitForSelector('[data-testid=team-view]');
    const before = (await t.http().get('/api/account').set('api-key', account.apiKey).expect(200)).body.data.availableBalance;
    await page.waitForFunction((usd) => document.querySelector('[data-testid=balance-available]')?.textContent === usd, `$${before.toFixed(2)}`);
    await page.waitForSelector('[data-testid=webhook-row]');
    await page.waitForSelector('[data-testid=live-indicator].on');
    // The history's charges are on the chart before the live transaction adds its own.
    await page.waitForSelector('[data-testid=spend-chart] canvas');
    const chartPoints = Number(await page.getAttribute('[data-testid=spend-chart]', 'data-points'));
    expect(chartPoints).toBeGreaterThan(0);
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
    await page.waitForFunction((n) => Number(document.querySelector('[data-testid=spend-chart]')?.getAttribute('data-points')) > n, chartPoints, { timeout: 20_000 });
    expect(await page.$('[data-testid=spend-chart] canvas')).not.toBeNull();
    await page.waitForFunction((usd) => document.querySelector('[data-testid=balance-available]')?.textContent !== usd, `$${before.toFixed(2)}`, { timeout: 20_000 });
    await page.waitForSelector('[data-testid=delivery-row]', { timeout: 20_000 });

    await page.screenshot({ path: join(SHOTS, 'team.png'), fullPage: true });
    await page.click(row);
    await page.waitForSelector('[data-testid=tx-drawer] .timeline');
    expect(await page.textContent('[data-testid=tx-drawer]')).toContain(txId);
    await page.screenshot({ path: join(SHOTS, 'team-drawer.png') });
    expect(consoleProblems).toEqual([]);
    await page.close();
  });

  it('team view: the deposit address with its QR code, and a deposit credited live (balance and list)', async () => {
    const account = await createAccount(t, 1);
    const page = await open();
    await page.fill('[data-testid=login-api-key]', account.apiKey);
    await page.click('[data-testid=login-submit]');
    await page.waitForSelector('[data-testid=funding-panel] [data-testid=deposit-address]');
    await page.waitForSelector('[data-testid=live-indicator].on');
    const { depositAddress } = (await t.http().get('/api/funding').set('api-key', account.apiKey).expect(200)).body.data;
    expect(await page.textContent('[data-testid=deposit-address]')).toBe(depositAddress);
    const qr = QRCode.create(depositAddress, { errorCorrectionLevel: 'M' });
    let dark = 0;
    for (let y = 0; y < qr.modules.size; y++) for (let x = 0; x < qr.modules.size; x++) if (qr.modules.get(x, y)) dark++;
    expect(Number(await page.getAttribute('[data-testid=deposit-qr]', 'data-modules'))).toBe(qr.modules.size);
    // The white background plus one rect per dark module of the address's code.
    expect(await page.$$eval('[data-testid=deposit-qr] rect', (rects) => rects.length)).toBe(dark + 1);
    await page.waitForFunction(() => document.querySelector('[data-testid=balance-available]')?.textContent === '$1.00');

    const chain = testChain(31337);
    const payer = Wallet.createRandom().connect(provider(chain));
    await provider(chain).send('anvil_setBalance', [payer.address, '0x' + (10n ** 18n).toString(16)]);
    const usdcToken = new Contract(usdc, erc20, payer);
    await (await usdcToken.mint(payer.address, 9_000_000n)).wait();
    await (await usdcToken.transfer(depositAddress, 9_000_000n)).wait();
    // The chain's confirmations are 0 locally: one pass credits it.
    await t.app.get(DepositWatcher).pass(31337);
    // Live, from the account.deposit push (the panels' own polls are 15 s apart).
    await page.waitForSelector('[data-testid=deposit-row][data-deposit-status=credited]', { timeout: 8_000 });
    expect(await page.textContent('[data-testid=deposit-row]')).toContain('$9.00');
    await page.waitForFunction(() => document.querySelector('[data-testid=balance-available]')?.textContent === '$10.00', undefined, { timeout: 8_000 });
    await page.screenshot({ path: join(SHOTS, 'team-funding.png'), fullPage: true });
  });

  it('team view: the policies panel creates and edits a policy and shows its usage per end user', async () => {
    const account = await createAccount(t, 100);
    const page = await open();
    await page.fill('[data-testid=login-api-key]', account.apiKey);
    await page.click('[data-testid=login-submit]');
    await page.waitForSelector('[data-testid=policies-panel]');
    await page.click('[data-testid=policy-new]');
    await page.fill('[data-testid=policy-name]', 'Campaign');
    await page.fill('[data-testid=policy-budgetUsd]', '20');
    await page.fill('[data-testid=policy-perUserMaxTxs]', '3');
    await page.click('[data-testid=policy-save]');
    await page.waitForSelector('[data-testid=policy-row]');
    const [created] = (await t.http().get('/api/policies').set('api-key', account.apiKey).expect(200)).body.data;
    expect(created).toMatchObject({ name: 'Campaign', enabled: true, budgetUsd: 20, perEndUser: { maxTxs: 3, windowSeconds: 86400 } });

    await page.click('[data-testid=policy-edit]');
    await page.fill('[data-testid=policy-budgetUsd]', '');
    await page.fill('[data-testid=policy-maxGasPriceGwei]', '250');
    await page.click('[data-testid=policy-save]');
    await page.waitForFunction(() => document.querySelector('[data-testid=policy-row]')?.textContent?.includes('250 gwei'));
    const edited = (await t.http().get(`/api/policies/${created.id}`).set('api-key', account.apiKey).expect(200)).body.data;
    expect(edited).toMatchObject({ name: 'Campaign', maxGasPriceGwei: 250, perEndUser: { maxTxs: 3 } });
    expect(edited).not.toHaveProperty('budgetUsd');

    const user = randomAddress().toLowerCase();
    const tx = await t.http().post('/api/submit-tx-sync').set('api-key', account.apiKey).send({ tx: { chainId: 31337, to: usdc, callData: mintCall(randomAddress()), endUser: user } }).expect(200);
    expect(tx.body.data.policyId).toBe(created.id);
    await page.click(`[data-testid=policy-row][data-policy-id="${created.id}"]`);
    await page.waitForSelector(`[data-testid=policy-usage-row][data-end-user="${user}"]`, { timeout: 20_000 });
    expect(await page.textContent(`[data-testid=policy-usage-row][data-end-user="${user}"]`)).toContain('1 tx');
    await page.click('[data-testid=policy-toggle]');
    await page.waitForFunction(() => document.querySelector('[data-testid=policy-toggle]')?.textContent === 'disabled');
    expect((await t.http().get(`/api/policies/${created.id}`).set('api-key', account.apiKey).expect(200)).body.data.enabled).toBe(false);
    await page.screenshot({ path: join(SHOTS, 'team-policies.png'), fullPage: true });
    expect(consoleProblems).toEqual([]);
    await page.close();
  });

  it('team view through wallet login: an injected EIP-1193 wallet signs the SIWE message', async () => {
    const wallet = Wallet.createRandom();
    await t.http().post('/admin/accounts').set(adminAuth).send({ address: wallet.address, creditUsd: 12 }).expect(201);
    const signed: string[] = [];
    const page = await open(async (p) => {
      // The wallet's key stays in the test; the page reaches it through personal_sign, as with a real extension.
      await p.exposeFunction('testWalletSign', async (hex: string) => {
        const message = toUtf8String(hex);
        signed.push(message);
        return wallet.signMessage(message);
      });
      await p.addInitScript((address: string) => {
        const sign = (window as unknown as { testWalletSign: (hex: string) => Promise<string> }).testWalletSign;
        (window as unknown as { ethereum: unknown }).ethereum = {
          request: async ({ method, params }: { method: string; params?: unknown[] }) => {
            if (method === 'eth_requestAccounts' || method === 'eth_accounts') return [address];
            if (method === 'eth_chainId') return '0x7a69';
            if (method === 'personal_sign') return sign(String(params?.[0]));
            throw new Error(`unsupported ${method}`);
          },
        };
      }, wallet.address);
    });
    await page.click('[data-testid=login-wallet]');
    await page.waitForSelector('[data-testid=team-view]');
    await page.waitForFunction(() => document.querySelector('[data-testid=balance-available]')?.textContent === '$12.00');
    await page.waitForSelector('[data-testid=live-indicator].on');
    expect(signed).toHaveLength(1);
    expect(signed[0]).toContain(wallet.address);
    const stored = await page.evaluate(() => Object.values(sessionStorage));
    expect(stored).toHaveLength(1);
    expect(JSON.parse(stored[0])).toEqual({ kind: 'team', jwt: expect.stringMatching(/^ey/) });
    expect(consoleProblems).toEqual([]);
    await page.close();
  });

  it('operator view: every relayer key on every chain with its balance', async () => {
    const account = await createAccount(t, 3);
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
    // Each chain's floor is the wallet monitor's, as /admin/health shows it.
    const health = (await t.http().get('/admin/health').set(adminAuth).expect(200)).body.data;
    for (const w of api.body.data as Array<{ chainId: number; floorWei: string | null }>) {
      const chain = health.checks.chains.find((c: { chainId: number }) => c.chainId === w.chainId);
      expect(w.floorWei).toBe(chain.relayers.floorWei);
    }

    await page.waitForSelector('[data-testid=chain-health]');
    // A row per RPC provider of each EVM chain, by its redacted URL only.
    const providerRows = await page.$$eval('[data-testid=provider-row]', (els) => els.map((el) => ({ chainId: Number(el.getAttribute('data-chain-id')), url: el.getAttribute('data-url') })));
    const evmChains = health.checks.chains.filter((c: { providers: unknown[] }) => c.providers.length > 0);
    expect(providerRows).toEqual(evmChains.flatMap((c: { chainId: number; providers: Array<{ url: string }> }) => c.providers.map((p) => ({ chainId: c.chainId, url: p.url }))));
    expect(providerRows.length).toBeGreaterThan(0);
    await page.waitForSelector(`[data-testid=account-row][data-address="${account.address.toLowerCase()}"]`);
    // The bridge filler's inventory on each chain's spoke (GET /admin/bridge), and its orders table.
    for (const c of TEST_CHAINS) await page.waitForSelector(`[data-testid=bridge-inventory-row][data-chain-id="${c.chainId}"][data-symbol="USDC"]`);
    await page.waitForSelector('[data-testid=bridge-panel] h3 >> text=Orders');
    // The deployment's figures (GET /admin/operator/figures) draw the throughput chart.
    await page.waitForSelector('[data-testid=throughput-chart] canvas', { timeout: 15_000 });
    await page.screenshot({ path: join(SHOTS, 'operator.png'), fullPage: true });
    expect(consoleProblems).toEqual([]);
    await page.close();
  });

  describe('the reads behind it', () => {
    it('GET /api/account is the caller\'s own account, read afresh', async () => {
      const account = await createAccount(t, 7);
      const res = await t.http().get('/api/account').set('api-key', account.apiKey).expect(200);
      expect(res.body.data).toMatchObject({ userId: account.userId, address: account.address.toLowerCase(), availableBalance: 7 });
      await t.http().post(`/admin/accounts/${account.address}/credit`).set(adminAuth).send({ usd: 3 }).expect(200);
      expect((await t.http().get('/api/account').set('api-key', account.apiKey).expect(200)).body.data.availableBalance).toBe(10);
      expect((await t.http().get('/api/account').expect(401)).body.error.code).toBe('AUTH_001');
    });

    it('GET /api/spend sums the ledger\'s charges per bucket and chain, only the caller\'s', async () => {
      const account = await createAccount(t, 50);
      const other = await createAccount(t, 50);
      const a = (await syncTx(account.apiKey, 31337)).body.data;
      const b = (await syncTx(account.apiKey, 84532)).body.data;
      expect([a.status, b.status]).toEqual(['EXECUTED', 'EXECUTED']);
      const hour = (await t.http().get('/api/spend?bucket=hour').set('api-key', account.apiKey).expect(200)).body.data;
      expect(hour.bucket).toBe('hour');
      const byChain = Object.fromEntries(hour.points.map((p: { chainId: number; spent: number; count: number }) => [p.chainId, p]));
      expect(byChain[31337]).toMatchObject({ spent: a.costUSD, count: 1 });
      expect(byChain[84532]).toMatchObject({ spent: b.costUSD, count: 1 });
      expect(hour.points.every((p: { bucket: string }) => p.bucket.endsWith(':00:00.000Z'))).toBe(true);
      const charged = 50 - (await t.http().get('/api/account').set('api-key', account.apiKey).expect(200)).body.data.availableBalance;
      expect(hour.totalSpent).toBeCloseTo(charged, 6);
      const day = (await t.http().get('/api/spend?bucket=day&count=7').set('api-key', account.apiKey).expect(200)).body.data;
      expect(day.totalSpent).toBe(hour.totalSpent);
      expect(day.points.every((p: { bucket: string }) => p.bucket.endsWith('T00:00:00.000Z'))).toBe(true);
      expect((await t.http().get('/api/spend').set('api-key', other.apiKey).expect(200)).body.data).toMatchObject({ points: [], totalSpent: 0 });
      for (const bad of ['bucket=week', 'count=0', 'count=401', 'count=abc']) {
        const res = await t.http().get(`/api/spend?${bad}`).set('api-key', account.apiKey).expect(400);
        expect(res.body.error.code).toBe('VALIDATION_004');
      }
    });

    it('webhooks: the account\'s deliveries, and only its own dead letters can be replayed', async () => {
      const owner = await createAccount(t, 20);
      const stranger = await createAccount(t, 20);
      receiver.reply = (call) => (call.path === '/dead' ? 500 : 200);
      await t.http().post('/api/user/register-webhooks').set('api-key', owner.apiKey).send([{ url: receiver.url('/dead'), authType: 'none' }]).expect(200);
      await syncTx(owner.apiKey);
      type Delivery = { id: string; status: string; txStatus: string };
      let dead: Delivery | undefined;
      const deadline = Date.now() + 20_000;
      while (!dead && Date.now() < deadline) {
        const view = (await t.http().get('/api/user/webhooks').set('api-key', owner.apiKey).expect(200)).body.data;
        expect(view.webhooks).toEqual([expect.objectContaining({ url: receiver.url('/dead'), authType: 'none', enabled: true })]);
        dead = view.deliveries.find((d: Delivery) => d.status === 'dead');
        if (!dead) await new Promise((r) => setTimeout(r, 200));
      }
      expect(dead).toBeDefined();
      expect((await t.http().get('/api/user/webhooks').set('api-key', stranger.apiKey).expect(200)).body.data).toEqual({ webhooks: [], deliveries: [] });
      const refused = await t.http().post(`/api/user/webhooks/dead-letters/${dead!.id}/replay`).set('api-key', stranger.apiKey).expect(404);
      expect(refused.body.error.code).toBe('RESOURCE_001');
      receiver.reply = () => 200;
      const replayed = await t.http().post(`/api/user/webhooks/dead-letters/${dead!.id}/replay`).set('api-key', owner.apiKey).expect(200);
      expect(replayed.body.data).toEqual({ id: dead!.id, status: 'pending' });
      await receiver.waitFor((calls) => calls.some((c) => c.path === '/dead' && c.status === 200));
      expect((await t.http().post(`/api/user/webhooks/dead-letters/${dead!.id}/replay`).set('api-key', owner.apiKey).expect(404)).body.error.code).toBe('RESOURCE_001');
    });

    it('GET /admin/accounts lists accounts newest first', async () => {
      const account = await createAccount(t, 1);
      const res = await t.http().get('/admin/accounts?limit=5').set(adminAuth).expect(200);
      expect(res.body.data.length).toBeLessThanOrEqual(5);
      expect(res.body.data[0].address).toBe(account.address.toLowerCase());
      expect((await t.http().get('/admin/accounts?limit=501').set(adminAuth).expect(400)).body.error.code).toBe('VALIDATION_004');
    });
  });
});
