import { randomBytes } from 'node:crypto';
import { keccak256 as ethersKeccak256 } from 'ethers';
import { keccak256, keccak256Bytes } from './keccak';

describe('keccak256', () => {
  it('hashes bytes and hex strings as ethers does, whatever their length', () => {
    for (const size of [0, 1, 31, 32, 135, 136, 137, 200, 1000]) {
      const bytes = randomBytes(size);
      const hex = `0x${bytes.toString('hex')}`;
      expect(keccak256(bytes)).toBe(ethersKeccak256(bytes));
      expect(keccak256(hex)).toBe(ethersKeccak256(bytes));
      expect(keccak256(hex.toUpperCase().replace('0X', '0x'))).toBe(ethersKeccak256(bytes));
      expect(Buffer.from(keccak256Bytes(bytes)).toString('hex')).toBe(ethersKeccak256(bytes).slice(2));
    }
  });

  it('refuses what ethers refuses: hex of a half byte, not hex, no 0x', () => {
    for (const bad of ['0x1', '0xzz', 'abcd', '0x12 ']) {
      expect(() => ethersKeccak256(bad)).toThrow();
      expect(() => keccak256(bad)).toThrow();
    }
  });
});
