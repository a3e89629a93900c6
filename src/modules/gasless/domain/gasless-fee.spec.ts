import { gaslessFee } from './gasless-fee';

describe('gasless fee', () => {
  const base = { settlementGas: 300_000n, gasPrice: 2_000_000_000n, marginBps: 0, tokenDecimals: 6, amount: 1_000_000_000n, feeBps: 0 };

  it('converts the settlement gas cost into input-token units at the pool price', () => {
    // 300k gas × 2 gwei = 0.0006 ETH; at 3000 USDC/ETH that is 1.8 USDC = 1_800_000 units.
    const fee = gaslessFee({ ...base, tokenPriceInNative: 1 / 3000 });
    // 1/3000 ETH is not exact in wei, so the rounded-up result may be one unit above.
    expect([1_800_000n, 1_800_001n]).toContain(fee!.relayFee);
    expect(fee).toMatchObject({ integratorFee: 0n, total: fee!.relayFee });
  });

  it('rounds up so the relay is never underpaid, and adds margin and integrator bps', () => {
    const fee = gaslessFee({ ...base, tokenPriceInNative: 1 / 3001, marginBps: 2_000, feeBps: 25 });
    expect(fee).not.toBeNull();
    // 0.00072 ETH at 3001 USDC/ETH = 2.16072 USDC; integrator 0.25% of 1000 USDC = 2.5 USDC.
    expect(fee!.relayFee).toBeGreaterThanOrEqual(2_160_720n);
    expect(fee!.relayFee).toBeLessThanOrEqual(2_160_721n);
    expect(fee!.integratorFee).toBe(2_500_000n);
    expect(fee!.total).toBe(fee!.relayFee + 2_500_000n);
  });

  it('is null for a token without a native price', () => {
    expect(gaslessFee({ ...base, tokenPriceInNative: 0 })).toBeNull();
    expect(gaslessFee({ ...base, tokenPriceInNative: Number.NaN })).toBeNull();
  });
});
