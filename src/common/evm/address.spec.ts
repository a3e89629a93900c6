import { isAddress } from 'ethers';
import { normalizeAddress } from './address';

describe('normalizeAddress', () => {
  it('accepts exactly what ethers accepts once lowercased, without computing a checksum', () => {
    const hex = '0123456789abcdefABCDEF';
    const samples = ['0x' + 'a'.repeat(40), '0X' + 'a'.repeat(40), 'a'.repeat(40), '0x' + 'g'.repeat(40), '0x' + 'a'.repeat(39), ' 0x' + 'B'.repeat(40) + ' ', '', '0x'];
    for (let i = 0; i < 500; i++) {
      const length = 38 + (i % 5);
      samples.push('0x' + Array.from({ length }, (_, j) => hex[(i * 7 + j * 13) % hex.length]).join(''));
    }
    for (const s of samples) {
      const lower = s.trim().toLowerCase();
      const expected = lower.startsWith('0x') && isAddress(lower) ? lower : null;
      expect(normalizeAddress(s)).toBe(expected);
    }
    expect(normalizeAddress(42)).toBeNull();
  });
});
