import { isUsdNumber } from './is-usd-number';
import { microToUsd, usdToMicro } from './usd';

describe('usd', () => {
  it('parses numbers and decimal strings exactly', () => {
    expect(usdToMicro(12.5)).toBe(12_500_000n);
    expect(usdToMicro('0.000001')).toBe(1n);
    expect(usdToMicro('100')).toBe(100_000_000n);
    expect(usdToMicro(0.1 + 0.2)).toBe(300_000n);
    expect(usdToMicro('-3.25')).toBe(-3_250_000n);
  });

  it('parses numbers of 1e21 and more, which JavaScript prints in exponent notation', () => {
    expect(usdToMicro(1e21)).toBe(10n ** 27n);
    expect(usdToMicro(-1e21)).toBe(-(10n ** 27n));
    expect(usdToMicro(1e300)).toBe(BigInt(1e300) * 1_000_000n);
    expect(() => usdToMicro(Number.POSITIVE_INFINITY)).toThrow(RangeError);
  });

  it('truncates beyond micro precision instead of rounding through floats', () => {
    expect(usdToMicro('1.0000009')).toBe(1_000_000n);
  });

  it('rejects what is not an amount', () => {
    expect(() => usdToMicro('abc')).toThrow(RangeError);
    expect(() => usdToMicro('1e5')).toThrow(RangeError);
    expect(() => usdToMicro(Number.NaN)).toThrow(RangeError);
  });

  it('converts back to the JSON number clients see', () => {
    expect(microToUsd(12_345_678n)).toBe(12.345678);
    expect(microToUsd(0n)).toBe(0);
  });
});

describe('isUsdNumber', () => {
  it('takes numbers with at most 6 decimal places, printed in any notation', () => {
    expect(isUsdNumber(12.5)).toBe(true);
    expect(isUsdNumber(0.000001)).toBe(true);
    expect(isUsdNumber(1e21)).toBe(true);
    expect(isUsdNumber(0)).toBe(true);
  });

  it('refuses finer amounts without throwing, exponent notation included', () => {
    expect(isUsdNumber(0.0000001)).toBe(false);
    expect(isUsdNumber(-1e-323)).toBe(false);
    expect(isUsdNumber(0.1 + 0.2)).toBe(false);
    expect(isUsdNumber(Number.NaN)).toBe(false);
    expect(isUsdNumber('1')).toBe(false);
  });
});
