import { bumpFees, weiToMicroUsd } from './fees';

describe('fees', () => {
  it('bumps EIP-1559 fees by the percentage, rounding up, and respects a market floor', () => {
    expect(bumpFees({ type: 'eip1559', maxFeePerGas: 100n, maxPriorityFeePerGas: 10n }, 15)).toEqual({ type: 'eip1559', maxFeePerGas: 115n, maxPriorityFeePerGas: 12n });
    expect(bumpFees({ type: 'eip1559', maxFeePerGas: 100n, maxPriorityFeePerGas: 10n }, 15, { type: 'eip1559', maxFeePerGas: 300n, maxPriorityFeePerGas: 5n })).toEqual({
      type: 'eip1559',
      maxFeePerGas: 300n,
      maxPriorityFeePerGas: 12n,
    });
    expect(bumpFees({ type: 'legacy', gasPrice: 1000n }, 10)).toEqual({ type: 'legacy', gasPrice: 1100n });
  });

  it('converts wei to micro-USD rounding up', () => {
    expect(weiToMicroUsd(10n ** 18n, 3000)).toBe(3_000_000_000n);
    expect(weiToMicroUsd(21_000n * 2_000_000_000n, 3000)).toBe(126_000n);
    expect(weiToMicroUsd(1n, 3000)).toBe(1n);
  });
});
