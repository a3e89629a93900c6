import { AbiCoder, concat } from 'ethers';
import { decodeRevertData, isRevertError, revertDataOf } from './revert-decoder';

const abi = AbiCoder.defaultAbiCoder();

describe('decodeRevertData', () => {
  it('decodes Error(string)', () => {
    expect(decodeRevertData(concat(['0x08c379a0', abi.encode(['string'], ['not enough'])]))).toBe('execution reverted: not enough');
  });

  it('decodes Panic(uint256) with its meaning', () => {
    expect(decodeRevertData(concat(['0x4e487b71', abi.encode(['uint256'], [0x11])]))).toBe(
      'execution reverted: panic 0x11 (arithmetic overflow or underflow)',
    );
  });

  it('names a custom error by selector', () => {
    expect(decodeRevertData('0xfb8f41b2')).toBe('execution reverted: custom error 0xfb8f41b2');
    expect(decodeRevertData(concat(['0xfb8f41b2', abi.encode(['uint256'], [1])]))).toMatch(/^execution reverted: custom error 0xfb8f41b2 \(data 0x/);
  });

  it('handles empty and malformed data', () => {
    expect(decodeRevertData('0x')).toBe('execution reverted (no reason)');
    expect(decodeRevertData(null)).toBe('execution reverted (no reason)');
    expect(decodeRevertData('0x08c379a0ff')).toMatch(/custom error 0x08c379a0/);
  });
});

describe('revertDataOf / isRevertError', () => {
  it('finds nested revert data', () => {
    const err = { code: 'UNKNOWN_ERROR', error: { code: 3, message: 'execution reverted', data: '0xdeadbeef' } };
    expect(revertDataOf(err)).toBe('0xdeadbeef');
    expect(isRevertError(err)).toBe(true);
  });

  it('does not take transport errors for reverts', () => {
    expect(isRevertError({ code: 'NETWORK_ERROR', message: 'connect ECONNREFUSED' })).toBe(false);
  });
});
