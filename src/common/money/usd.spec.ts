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
