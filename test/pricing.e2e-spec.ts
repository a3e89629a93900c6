import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PricingService } from '../src/modules/pricing/pricing.service';
import { TEST_CHAINS_FILE, TEST_STATE_DIR } from './support/test-env';
import { createTestApp } from './support/test-app';

describe('native USD pricing', () => {
  it('prices ETH from the local chains\' feeds', async () => {
    const t = await createTestApp();
    try {
      for (const chainId of [31337, 84532]) {
        const price = await t.app.get(PricingService).nativeUsd(chainId);
        expect(price.source).toBe('chainlink');
        expect(price.usd).toBeGreaterThan(2900);
        expect(price.usd).toBeLessThan(3100);
      }
    } finally {
      await t.close();
    }
  });

  it('falls back to the static price when the pool cannot be read, and fails cleanly without one', async () => {
    const file = JSON.parse(readFileSync(TEST_CHAINS_FILE, 'utf8'));
    // A pool address with no code behind it: the call fails and the static price answers.
    file.chains[0].pricing.nativeUsdPool.pair = '0x00000000000000000000000000000000000000ff';
    delete file.chains[0].pricing.chainlink;
    file.chains[1].pricing = {};
    const path = join(TEST_STATE_DIR, 'chains-bad-pricing.json');
    writeFileSync(path, JSON.stringify(file));
    const t = await createTestApp({ env: { CHAINS_FILE: path } });
    try {
      const pricing = t.app.get(PricingService);
      expect(await pricing.nativeUsd(31337)).toMatchObject({ usd: 3000, source: 'static' });
      await expect(pricing.nativeUsd(84532)).rejects.toMatchObject({ code: 'CHAIN_004' });
      await expect(pricing.nativeUsd(5)).rejects.toMatchObject({ code: 'CHAIN_001' });
    } finally {
      await t.close();
    }
  });
});
