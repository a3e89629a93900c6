import { ErrorDescription, Interface, Result } from 'ethers';

/**
 * Custom errors the relay can name: the service's own contracts (contracts/*.sol), Permit2 (gasless
 * swaps) and OpenZeppelin 5 (ERC-20, ERC-721, ERC-4626, access control, ownership, pausing), which
 * most tokens and vaults a client relays to are built from. A selector not listed stays raw hex.
 */
const KNOWN_ERRORS = new Interface([
  // OpenZeppelin 5: IERC20Errors, IERC721Errors (draft-IERC6093)
  'error ERC20InsufficientBalance(address sender, uint256 balance, uint256 needed)',
  'error ERC20InvalidSender(address sender)',
  'error ERC20InvalidReceiver(address receiver)',
  'error ERC20InsufficientAllowance(address spender, uint256 allowance, uint256 needed)',
  'error ERC20InvalidApprover(address approver)',
  'error ERC20InvalidSpender(address spender)',
  'error ERC721InvalidOwner(address owner)',
  'error ERC721NonexistentToken(uint256 tokenId)',
  'error ERC721IncorrectOwner(address sender, uint256 tokenId, address owner)',
  'error ERC721InvalidSender(address sender)',
  'error ERC721InvalidReceiver(address receiver)',
  'error ERC721InsufficientApproval(address operator, uint256 tokenId)',
  'error ERC721InvalidApprover(address approver)',
  'error ERC721InvalidOperator(address operator)',
  // OpenZeppelin 5: IERC1155Errors
  'error ERC1155InsufficientBalance(address sender, uint256 balance, uint256 needed, uint256 tokenId)',
  'error ERC1155InvalidSender(address sender)',
  'error ERC1155InvalidReceiver(address receiver)',
  'error ERC1155MissingApprovalForAll(address operator, address owner)',
  'error ERC1155InvalidApprover(address approver)',
  'error ERC1155InvalidOperator(address operator)',
  'error ERC1155InvalidArrayLength(uint256 idsLength, uint256 valuesLength)',
  // OpenZeppelin 5: ERC-2612 permits, nonces, Address and SafeCast utilities
  'error ERC2612ExpiredSignature(uint256 deadline)',
  'error ERC2612InvalidSigner(address signer, address owner)',
  'error InvalidAccountNonce(address account, uint256 currentNonce)',
  'error AddressEmptyCode(address target)',
  'error FailedCall()',
  'error InsufficientBalance(uint256 balance, uint256 needed)',
  'error SafeCastOverflowedUintDowncast(uint8 bits, uint256 value)',
  // OpenZeppelin 5: ERC-4626, access control, ownership, pausing, SafeERC20, reentrancy
  'error ERC4626ExceededMaxDeposit(address receiver, uint256 assets, uint256 max)',
  'error ERC4626ExceededMaxMint(address receiver, uint256 shares, uint256 max)',
  'error ERC4626ExceededMaxWithdraw(address owner, uint256 assets, uint256 max)',
  'error ERC4626ExceededMaxRedeem(address owner, uint256 shares, uint256 max)',
  'error AccessControlUnauthorizedAccount(address account, bytes32 neededRole)',
  'error AccessControlBadConfirmation()',
  'error OwnableUnauthorizedAccount(address account)',
  'error OwnableInvalidOwner(address owner)',
  'error EnforcedPause()',
  'error ExpectedPause()',
  'error SafeERC20FailedOperation(address token)',
  'error ReentrancyGuardReentrantCall()',
  // contracts/SwapExecutor.sol (InsufficientOutput has the same selector in GaslessSettler.sol)
  'error Expired()',
  'error BadValue()',
  'error LegsMismatch()',
  'error InsufficientOutput(uint256 amountOut, uint256 minAmountOut)',
  'error NativeTransferFailed()',
  // contracts/GaslessSettler.sol
  'error SettlementNotSigned(uint256 nonce, uint256 expectedWord)',
  'error FeeExceedsInput(uint256 feeAmount, uint256 amountIn)',
  'error ExecutorNotSet()',
  // contracts/SettlementDelegate.sol
  'error DeadlineExpired(uint256 deadline)',
  'error NonceAlreadyUsed(uint256 nonce)',
  'error InvalidSignature()',
  'error CallFailed(uint256 index, bytes reason)',
  // Permit2 (SignatureTransfer)
  'error SignatureExpired(uint256 signatureDeadline)',
  'error InvalidNonce()',
  'error InvalidSigner()',
  'error InvalidSignatureLength()',
  'error InvalidContractSignature()',
  'error InvalidAmount(uint256 maxAmount)',
  'error LengthMismatch()',
]);

/** `Name(arg=value, ...)` for revert data of a known custom error, else null. */
export function describeKnownError(data: string): string | null {
  let parsed: ErrorDescription | null;
  try {
    parsed = KNOWN_ERRORS.parseError(data);
  } catch {
    // The selector matched but the arguments do not decode: not the error it looks like.
    return null;
  }
  if (!parsed) return null;
  const args = parsed.fragment.inputs.map((input, i) => `${input.name}=${formatArg(parsed.args[i])}`);
  return `${parsed.name}(${args.join(', ')})`;
}

function formatArg(value: unknown): string {
  if (typeof value === 'bigint') return value.toString();
  if (value instanceof Result) return `[${value.toArray().map(formatArg).join(', ')}]`;
  return String(value);
}
