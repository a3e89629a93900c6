import { countersFor, minedCostWei } from './settlement-math';

describe('settlement arithmetic', () => {
  const receipt = { status: 1 as const, gasUsed: 21_000n, effectiveGasPrice: 2_000_000_000n, l1Fee: 5_000n };
  const gas = 21_000n * 2_000_000_000n;

  it('charges gas at the effective price, the L1 fee, the value and the top-ups', () => {
    expect(minedCostWei({ transactionType: 'flash', value: '7', fundingCostWei: '100' }, receipt)).toBe(gas + 5_000n + 7n + 100n);
  });

  it('sends no value when the call reverted, but the gas is still charged', () => {
    expect(minedCostWei({ transactionType: 'flash', value: '7', fundingCostWei: '0' }, { ...receipt, status: 0 as const })).toBe(gas + 5_000n);
  });

  it('charges a funding-signed transaction its top-up only (the user paid the gas from it)', () => {
    expect(minedCostWei({ transactionType: 'funding-signed', value: '7', fundingCostWei: '900' }, receipt)).toBe(900n);
  });

  it("corrects today's amount from the estimate to the charge, only for a submission made today", () => {
    const now = new Date('2026-11-23T10:00:00Z');
    const today = countersFor({ createdAt: new Date('2026-11-23T09:59:00Z'), estimatedCostMicro: 500n }, 120n, true, now);
    expect(today).toEqual({ success: true, daily: { dayStart: new Date('2026-11-23T00:00:00Z'), now, estimatedMicro: 500n, chargedMicro: 120n } });
    const yesterday = countersFor({ createdAt: new Date('2026-11-22T23:59:59Z'), estimatedCostMicro: 500n }, 120n, false, now);
    expect(yesterday).toEqual({ success: false, daily: null });
  });
});
