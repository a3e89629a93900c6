import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseEther } from 'ethers';
import { DataSource } from 'typeorm';
import { PricingService } from '../src/modules/pricing/pricing.service';
import { mintCall, randomAddress, testChain, token } from './support/chain-fixtures';
import { deployTestFeed, TestFeed } from './support/price-feed';
import { createAccount, createTestApp, TestApp } from './support/test-app';
import { TEST_CHAINS_FILE, TEST_STATE_DIR } from './support/test-env';

const chain = testChain(31337);
const usdc = token(chain, 'USDC');

/** The test chains file with chain 31337's pricing replaced (its other chains unchanged). */
function chainsFileWith(name: string, pricing: Record<string, unknown>): string {
  const file = JSON.parse(readFileSync(TEST_CHAINS_FILE, 'utf8'));
  file.chains.find((c: { chainId: number }) => c.chainId === 31337).pricing = pricing;
  const path = join(TEST_STATE_DIR, `chains-${name}.json`);
  writeFileSync(path, JSON.stringify(file));
  return path;
}

describe('market data: native USD prices from a Chainlink feed', () => {
  let feed: TestFeed;

  beforeAll(async () => {
    feed = await deployTestFeed(chain, 3000);
  });

  it('the local stack prices every chain from its nativeUsdFeed at 3000 USD', async () => {
    const t = await createTestApp();
    try {
      for (const chainId of [31337, 84532]) {
        const c = testChain(chainId) as ReturnType<typeof testChain> & { pricing: { chainlink: { nativeUsd: string } } };
        expect(c.pricing.chainlink.nativeUsd).toBe(c.contracts.nativeUsdFeed);
        expect(c.contracts.tickLens).toMatch(/^0x[0-9a-fA-F]{40}$/);
        expect(await t.app.get(PricingService).nativeUsd(chainId)).toMatchObject({ usd: 3000, source: 'chainlink' });
      }
      const tokens = (chain as unknown as { tokens: Array<{ symbol: string; usdStable: boolean }> }).tokens;
      expect(tokens.filter((x) => x.usdStable).map((x) => x.symbol).sort()).toEqual(['DAI', 'USDC']);
    } finally {
      await t.close();
    }
  });

  describe('with a feed of its own', () => {
    let t: TestApp;

    beforeAll(async () => {
      const pool = (JSON.parse(readFileSync(TEST_CHAINS_FILE, 'utf8')).chains[0] as { pricing: { nativeUsdPool: unknown } }).pricing.nativeUsdPool;
      const path = chainsFileWith('own-feed', { chainlink: { nativeUsd: feed.address, maxAgeSeconds: 600 }, nativeUsdPool: pool, staticNativeUsd: 2500 });
      t = await createTestApp({ env: { CHAINS_FILE: path, PRICE_CACHE_MS: '0' } });
    });
    afterAll(() => t.close());

    it('a feed update changes quotes and charges, and the record says the price it was charged at', async () => {
      const { apiKey } = await createAccount(t, 50);
      const tx = { chainId: 31337, to: usdc, callData: mintCall(randomAddress()), gasLimit: '100000' };
      await feed.set(3000);
      const at3000 = (await t.http().post('/api/quote').set('api-key', apiKey).send(tx).expect(201)).body.data.costUSD as number;
      await feed.set(3300);
      const at3300 = (await t.http().post('/api/quote').set('api-key', apiKey).send(tx).expect(201)).body.data.costUSD as number;
      // Same gas limit and fee cap: the quote moves with the price alone (fees may move a little between the two reads).
      expect(at3300 / at3000).toBeGreaterThan(1.05);
      expect(at3300 / at3000).toBeLessThan(1.15);

      const settled = await t.http().post('/api/submit-tx-sync').set('api-key', apiKey).send({ tx, timeoutMs: 15000, includeReceipt: true }).expect(200);
      const record = settled.body.data;
      expect(record).toMatchObject({ status: 'EXECUTED', nativePriceUsd: 3300 });
      const receipt = record.receipt as { gasUsed: string; effectiveGasPrice: string };
      const wei = BigInt(receipt.gasUsed) * BigInt(receipt.effectiveGasPrice);
      expect(record.costUSD).toBeCloseTo((Number(wei) / 1e18) * 3300, 5);
      const [row] = await t.app.get(DataSource).query('SELECT native_price_usd::text AS p FROM relay_transactions WHERE id = $1', [record.id]);
      expect(row.p).toBe('3300.000000');

      await feed.set(3000);
      const again = await t.http().post('/api/submit-tx-sync').set('api-key', apiKey).send({ tx, timeoutMs: 15000 }).expect(200);
      expect(again.body.data.nativePriceUsd).toBe(3000);
    });

    it('a stale feed falls back to the pool, whose price converts only a small native value', async () => {
      const { apiKey } = await createAccount(t, 50);
      const pricing = t.app.get(PricingService);
      await feed.set(3000);
      expect(await pricing.nativeUsd(31337)).toMatchObject({ usd: 3000, source: 'chainlink' });
      await feed.setAged(3000, 601);
      const fallback = await pricing.nativeUsd(31337);
      expect(fallback.source).toBe('v2-pool');
      expect(fallback.usd).toBeGreaterThan(2900);
      expect(fallback.usd).toBeLessThan(3100);
      // $3 of value is under the cap; 1 ETH (~$3,000) through a pool price alone is refused.
      await t.http().post('/api/quote').set('api-key', apiKey).send({ chainId: 31337, to: randomAddress(), callData: '0x', value: parseEther('0.001').toString() }).expect(201);
      const refused = await t.http().post('/api/quote').set('api-key', apiKey).send({ chainId: 31337, to: randomAddress(), callData: '0x', value: parseEther('1').toString() }).expect(503);
      expect(refused.body).toMatchObject({ success: false, error: { code: 'CHAIN_004' } });
      const submit = await t.http().post('/api/submit-tx').set('api-key', apiKey).send({ chainId: 31337, to: randomAddress(), callData: '0x', value: parseEther('1').toString() }).expect(503);
      expect(submit.body.error.code).toBe('CHAIN_004');
      // Fresh again: the feed answers.
      await feed.set(3000);
      expect(await pricing.nativeUsd(31337)).toMatchObject({ usd: 3000, source: 'chainlink' });
    });

    it('a feed answer moved out of the sanity band, or not positive, is refused like a stale one', async () => {
      const pricing = t.app.get(PricingService);
      await feed.set(3000);
      expect(await pricing.nativeUsd(31337)).toMatchObject({ usd: 3000, source: 'chainlink' });
      await feed.set(9000);
      expect((await pricing.nativeUsd(31337)).source).toBe('v2-pool');
      await feed.set(0);
      expect((await pricing.nativeUsd(31337)).source).toBe('v2-pool');
      await feed.set(3100);
      expect(await pricing.nativeUsd(31337)).toMatchObject({ usd: 3100, source: 'chainlink' });
      await feed.set(3000);
    });
  });

  it('with no fresh source at all, quotes and submissions answer 503 CHAIN_004, never a 500', async () => {
    const stale = await deployTestFeed(chain, 3000);
    await stale.setAged(3000, 7200);
    const path = chainsFileWith('stale-only', { chainlink: { nativeUsd: stale.address, maxAgeSeconds: 3600 } });
    const t = await createTestApp({ env: { CHAINS_FILE: path, PRICE_CACHE_MS: '0' } });
    try {
      const { apiKey, userId } = await createAccount(t, 50);
      const tx = { chainId: 31337, to: usdc, callData: mintCall(randomAddress()) };
      for (const [route, body] of [
        ['/api/quote', tx],
        ['/api/submit-tx', tx],
        ['/api/submit-tx-sync', { tx, timeoutMs: 5000 }],
      ] as const) {
        const res = await t.http().post(route).set('api-key', apiKey).send(body);
        expect({ route, status: res.status, code: res.body.error?.code }).toEqual({ route, status: 503, code: 'CHAIN_004' });
      }
      const weth = token(chain, 'WETH');
      const swap = await t.http().get('/quote').set('api-key', apiKey).query({ fromChain: 31337, toChain: 31337, sender: randomAddress(), fromToken: weth, toToken: usdc, amount: '1000000000000000000' });
      expect(swap.status).toBe(503);
      // Nothing reserved, nothing written.
      const [{ n }] = await t.app.get(DataSource).query('SELECT count(*)::int AS n FROM relay_transactions WHERE user_id = $1', [userId]);
      expect(n).toBe(0);
    } finally {
      await t.close();
    }
  });
});
