import { Interface } from 'ethers';

/** ABI of contracts/SwapExecutor.sol as the service uses it. Hop kind: 0 Uniswap-V2-style pair, 1 Uniswap V3 pool. */
export const SWAP_EXECUTOR_ABI = new Interface([
  'function swap((address tokenIn, address tokenOut, uint256 amountIn, uint256 minAmountOut, address receiver, uint256 feeAmount, address feeRecipient, uint256 deadline, bytes32 ref, (uint256 amountIn, (address pool, bool zeroForOne, uint16 feeBps, uint8 kind)[] hops)[] legs) p) payable returns (uint256 amountOut)',
  'event Swapped(bytes32 indexed ref, address indexed payer, address indexed receiver, address tokenIn, address tokenOut, uint256 amountIn, uint256 amountOut, uint256 feeAmount, address feeRecipient)',
  'error Expired()',
  'error BadValue()',
  'error LegsMismatch()',
  'error InsufficientOutput(uint256 amountOut, uint256 minAmountOut)',
  'error NativeTransferFailed()',
  'error UnexpectedCallback()',
  'error V3PartialFill(uint256 amountIn, uint256 taken)',
  'error BadHopKind()',
]);
