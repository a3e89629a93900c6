import { bridgeFee, toDestUnits, toSrcUnits } from './bridge-assets';

describe('bridge fee and units', () => {
  it('covers the destination gas (rounded up) and the capital cost', () => {
    // 120k gas at 1 gwei and 3000 USD/ETH = 0.36 USD = 360000 units of a 6-decimal stablecoin.
    const fee = bridgeFee({ amountDest: 1_000_000_000n, destDecimals: 6, gasWei: 120_000n * 1_000_000_000n, nativeUsd: 3000, capitalBps: 5 });
    expect(fee).toBe(360_000n + 500_000n);
  });

  it('scales between decimals both ways', () => {
    const asset = { src: '0x1', dest: '0x2', symbol: 'USDC', srcDecimals: 6, destDecimals: 18 };
    expect(toDestUnits(5n, asset)).toBe(5n * 10n ** 12n);
    expect(toSrcUnits(5n * 10n ** 12n, asset)).toBe(5n);
  });
});
