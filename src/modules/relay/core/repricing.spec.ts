import { feeCap, repricedFees } from './repricing';

const gwei = (n: number) => BigInt(Math.round(n * 1e9));
const fees = (max: number, tip: number) => ({ type: 'eip1559' as const, maxFeePerGas: gwei(max), maxPriorityFeePerGas: gwei(tip) });

describe('repricing arithmetic', () => {
  it('caps at a multiple of the accepted max fee', () => {
    expect(feeCap({ acceptedMaxFee: gwei(10), multiple: 3, estimatedCostMicro: 1000n, perTxLimitMicro: null })).toBe(gwei(30));
  });

  it("caps where the worst case reaches the account's per-tx limit", () => {
    // reserved 1000 µUSD at 10 gwei; the limit allows 2000 µUSD → 20 gwei
    expect(feeCap({ acceptedMaxFee: gwei(10), multiple: 3, estimatedCostMicro: 1000n, perTxLimitMicro: 2000n })).toBe(gwei(20));
  });

  it('a refused under-base-fee transaction takes the fresh market fees, not a bump of the old ones', () => {
    expect(repricedFees({ last: fees(3, 1), market: fees(41, 1), bumpPercent: 15, replacing: false, cap: gwei(100), baseFee: gwei(20) })).toEqual(fees(41, 1));
  });

  it('keeps the tip of the last signature when the market tip is lower', () => {
    expect(repricedFees({ last: fees(3, 2), market: fees(41, 1), bumpPercent: 15, replacing: false, cap: gwei(100), baseFee: gwei(20) })).toEqual(fees(41, 2));
  });

  it('a replacement beats the last signature by the bump and is never under the market', () => {
    expect(repricedFees({ last: fees(10, 1), market: fees(5, 1), bumpPercent: 15, replacing: true, cap: gwei(100), baseFee: gwei(2) })).toEqual(fees(11.5, 1.15));
    expect(repricedFees({ last: fees(10, 1), market: fees(40, 2), bumpPercent: 15, replacing: true, cap: gwei(100), baseFee: gwei(19) })).toEqual(fees(40, 2));
  });

  it('clamps to the cap when the clamped fee is still a valid replacement over the base fee', () => {
    expect(repricedFees({ last: fees(10, 1), market: fees(40, 2), bumpPercent: 15, replacing: true, cap: gwei(30), baseFee: gwei(19) })).toEqual(fees(30, 2));
  });

  it('gives up (null) when the cap is under the next base fee', () => {
    expect(repricedFees({ last: fees(10, 1), market: fees(80, 2), bumpPercent: 15, replacing: false, cap: gwei(30), baseFee: gwei(39) })).toBeNull();
  });

  it('gives up (null) when the cap does not allow a valid replacement', () => {
    expect(repricedFees({ last: fees(28, 1), market: fees(80, 2), bumpPercent: 15, replacing: true, cap: gwei(30), baseFee: gwei(10) })).toBeNull();
  });

  it('legacy fees: bumped gas price within the cap', () => {
    const last = { type: 'legacy' as const, gasPrice: gwei(10) };
    expect(repricedFees({ last, market: { type: 'legacy', gasPrice: gwei(5) }, bumpPercent: 15, replacing: true, cap: gwei(100), baseFee: null })).toEqual({ type: 'legacy', gasPrice: gwei(11.5) });
    expect(repricedFees({ last, market: { type: 'legacy', gasPrice: gwei(50) }, bumpPercent: 15, replacing: true, cap: gwei(20), baseFee: null })).toEqual({ type: 'legacy', gasPrice: gwei(20) });
  });
});
