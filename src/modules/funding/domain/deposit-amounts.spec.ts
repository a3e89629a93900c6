import { microToDecimal } from '../../../common/money/decimal';
import { depositReference, nativeToMicro, stableToMicro } from './deposit-amounts';

describe('deposit amounts', () => {
  it('counts stablecoins 1:1 from their decimals, rounding dust down', () => {
    expect(stableToMicro(25_000_000n, 6)).toBe(25_000_000n);
    expect(stableToMicro(10n ** 18n + 999_999_999_999n, 18)).toBe(1_000_000n);
    expect(stableToMicro(123n, 2)).toBe(1_230_000n);
  });
  it('converts native wei at a micro-USD price, rounding down', () => {
    expect(nativeToMicro(10n ** 17n, 2_500_000_000n, 18)).toBe(250_000_000n);
    expect(nativeToMicro(1n, 3_000_000_000n, 18)).toBe(0n);
  });
  it('names a deposit by chain, lowercase hash and log index (native -1)', () => {
    expect(depositReference(1, '0xAB' + '0'.repeat(62), -1)).toBe(`dep:1:0xab${'0'.repeat(62)}:-1`);
    expect(microToDecimal(2_500_123_456n)).toBe('2500.123456');
  });
});
