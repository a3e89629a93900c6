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

  it('names known custom errors with their arguments (OpenZeppelin 5, the service\'s own contracts)', () => {
    const holder = '0x00000000000000000000000000000000000000aa';
    expect(decodeRevertData(concat(['0xe450d38c', abi.encode(['address', 'uint256', 'uint256'], [holder, 0, 1])]))).toBe(
      'execution reverted: ERC20InsufficientBalance(sender=0x00000000000000000000000000000000000000AA, balance=0, needed=1)',
    );
    expect(decodeRevertData(concat(['0x7e273289', abi.encode(['uint256'], [42])]))).toBe('execution reverted: ERC721NonexistentToken(tokenId=42)');
    const role = '0x' + 'ab'.repeat(32);
    expect(decodeRevertData(concat(['0xe2517d3f', abi.encode(['address', 'bytes32'], [holder, role])]))).toBe(
      `execution reverted: AccessControlUnauthorizedAccount(account=0x00000000000000000000000000000000000000AA, neededRole=${role})`,
    );
    expect(decodeRevertData(concat(['0x2c19b8b8', abi.encode(['uint256', 'uint256'], [5, 9])]))).toMatch(/^execution reverted: InsufficientOutput\(amountOut=5, minAmountOut=9\)$/);
  });

  it('keeps a known selector whose arguments do not decode as raw hex', () => {
    expect(decodeRevertData('0xe450d38c')).toBe('execution reverted: custom error 0xe450d38c');
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
