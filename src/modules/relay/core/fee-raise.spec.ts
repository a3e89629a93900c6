import { CANCEL_GAS, reservationNeeded, worstCaseWei } from './fee-raise';
import { bumpFees, FeeSettings, weiToMicroUsd } from './fees';

describe('fee raise math', () => {
  const row = { gasLimit: '100000', value: '5', fundingCostWei: '7' };
  const eip: FeeSettings = { type: 'eip1559', maxFeePerGas: 30n * 10n ** 9n, maxPriorityFeePerGas: 2n * 10n ** 9n };

  it('a call at new fees: gas limit × max fee + value + top-ups spent', () => {
    expect(worstCaseWei(row, eip, 'call')).toBe(100_000n * 30n * 10n ** 9n + 5n + 7n);
    expect(worstCaseWei(row, { type: 'legacy', gasPrice: 3n }, 'call')).toBe(300_000n + 12n);
  });

  it('a cancellation: CANCEL_GAS × max fee, no value, top-ups still counted', () => {
    expect(worstCaseWei(row, eip, 'cancel')).toBe(CANCEL_GAS * 30n * 10n ** 9n + 7n);
  });

  it('a row without a gas limit (never the case once sent) counts no gas rather than throwing', () => {
    expect(worstCaseWei({ ...row, gasLimit: null }, eip, 'call')).toBe(12n);
  });

  it('a 50% bump raises the worst case by 50% of its gas part, priced up (never under)', () => {
    const before = worstCaseWei(row, eip, 'call');
    const after = worstCaseWei(row, bumpFees(eip, 50), 'call');
    expect(after - 12n).toBe(((before - 12n) * 150n) / 100n);
    // 1 wei at 3000 USD is 3e-12 USD: rounded up to 1 micro-USD.
    expect(reservationNeeded({ worstWei: 1n, usdPerNative: 3000, decimals: 18, reservedMicro: 0n })).toBe(1n);
    expect(reservationNeeded({ worstWei: after, usdPerNative: 3000, decimals: 18, reservedMicro: 0n })).toBe(weiToMicroUsd(after, 3000));
  });

  it('never below what is reserved: a cheaper re-signature (a cancellation, a lower price) keeps the reservation', () => {
    const reserved = weiToMicroUsd(worstCaseWei(row, eip, 'call'), 3000);
    expect(reservationNeeded({ worstWei: worstCaseWei(row, eip, 'cancel'), usdPerNative: 3000, decimals: 18, reservedMicro: reserved })).toBe(reserved);
    expect(reservationNeeded({ worstWei: worstCaseWei(row, eip, 'call'), usdPerNative: 1500, decimals: 18, reservedMicro: reserved })).toBe(reserved);
    expect(reservationNeeded({ worstWei: worstCaseWei(row, bumpFees(eip, 10), 'call'), usdPerNative: 3000, decimals: 18, reservedMicro: reserved })).toBeGreaterThan(reserved);
  });

  it('decimals of the native currency are honoured (6-decimal native: 1e6 units = 1 coin)', () => {
    expect(reservationNeeded({ worstWei: 2_000_000n, usdPerNative: 1.5, decimals: 6, reservedMicro: 0n })).toBe(3_000_000n);
  });
});
