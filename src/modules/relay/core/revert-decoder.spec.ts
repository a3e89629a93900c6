import { AbiCoder, concat, getAddress, Interface } from 'ethers';
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

  it('names OpenZeppelin 5 ERC-1155, ERC-2612, nonce and utility errors', () => {
    const oz = new Interface([
      'error ERC1155InsufficientBalance(address sender, uint256 balance, uint256 needed, uint256 tokenId)',
      'error ERC1155MissingApprovalForAll(address operator, address owner)',
      'error ERC2612ExpiredSignature(uint256 deadline)',
      'error InvalidAccountNonce(address account, uint256 currentNonce)',
      'error FailedCall()',
      'error SafeCastOverflowedUintDowncast(uint8 bits, uint256 value)',
    ]);
    const a = '0x00000000000000000000000000000000000000aa';
    const b = '0x00000000000000000000000000000000000000bb';
    expect(decodeRevertData(oz.encodeErrorResult('ERC1155InsufficientBalance', [a, 1, 2, 7]))).toBe(
      'execution reverted: ERC1155InsufficientBalance(sender=0x00000000000000000000000000000000000000AA, balance=1, needed=2, tokenId=7)',
    );
    expect(decodeRevertData(oz.encodeErrorResult('ERC1155MissingApprovalForAll', [a, b]))).toBe(
      `execution reverted: ERC1155MissingApprovalForAll(operator=0x00000000000000000000000000000000000000AA, owner=${getAddress(b)})`,
    );
    expect(decodeRevertData(oz.encodeErrorResult('ERC2612ExpiredSignature', [1700000000]))).toBe('execution reverted: ERC2612ExpiredSignature(deadline=1700000000)');
    expect(decodeRevertData(oz.encodeErrorResult('InvalidAccountNonce', [a, 3]))).toBe(
      'execution reverted: InvalidAccountNonce(account=0x00000000000000000000000000000000000000AA, currentNonce=3)',
    );
    expect(decodeRevertData(oz.encodeErrorResult('FailedCall', []))).toBe('execution reverted: FailedCall()');
    expect(decodeRevertData(oz.encodeErrorResult('SafeCastOverflowedUintDowncast', [8, 300]))).toBe('execution reverted: SafeCastOverflowedUintDowncast(bits=8, value=300)');
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
