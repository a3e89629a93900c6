import { Interface } from 'ethers';
import type { GaslessMode } from './permit-typed-data';

/** GaslessSettler.Settlement (contracts/GaslessSettler.sol), field for field. */
export interface Settlement {
  owner: string;
  tokenIn: string;
  amountIn: bigint;
  nonce: bigint;
  deadline: bigint;
  /** ZeroAddress for native output. */
  tokenOut: string;
  minAmountOut: bigint;
  receiver: string;
  feeAmount: bigint;
  executorData: string;
}

const SETTLEMENT_TUPLE =
  '(address owner,address tokenIn,uint256 amountIn,uint256 nonce,uint256 deadline,address tokenOut,uint256 minAmountOut,address receiver,uint256 feeAmount,bytes executorData)';

export const GASLESS_SETTLER_ABI = new Interface([
  `function settle(${SETTLEMENT_TUPLE} s, bytes signature) returns (uint256)`,
  `function settleWithWitness(${SETTLEMENT_TUPLE} s, bytes signature) returns (uint256)`,
  'function relayers(address) view returns (bool)',
  'function executor() view returns (address)',
  'function feeRecipient() view returns (address)',
  'event GaslessSwap(address indexed owner, address indexed receiver, address tokenIn, address tokenOut, uint256 amountIn, uint256 feeAmount, uint256 amountOut, uint256 nonce)',
]);

/** Mode 2 goes through the relayer-only `settle`; mode 3's witness lets anyone call `settleWithWitness`. */
export function encodeSettlement(mode: GaslessMode, settlement: Settlement, signature: string): string {
  return GASLESS_SETTLER_ABI.encodeFunctionData(mode === 2 ? 'settle' : 'settleWithWitness', [settlement, signature]);
}

/** The calldata with a placeholder signature: what a client sees in calldataTemplate before signing. */
export const SIGNATURE_PLACEHOLDER = `0x${'00'.repeat(65)}`;
