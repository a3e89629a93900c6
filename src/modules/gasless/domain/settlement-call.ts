import { AbiCoder, Interface, id, keccak256 } from 'ethers';
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
  `function nonceWord(${SETTLEMENT_TUPLE} s) view returns (uint256)`,
  'function executor() view returns (address)',
  'function feeRecipient() view returns (address)',
  'event GaslessSwap(address indexed owner, address indexed receiver, address tokenIn, address tokenOut, uint256 amountIn, uint256 feeAmount, uint256 amountOut, uint256 nonce)',
  'error SettlementNotSigned(uint256 nonce, uint256 expectedWord)',
]);

/** GaslessSettler.SETTLEMENT_COMMITMENT_TAG. */
const COMMITMENT_TAG = id('GaslessSettler.Settlement.v1');
const COMMITMENT_TYPES = ['bytes32', 'address', 'address', 'address', 'address', 'uint256', 'uint256', 'address', 'uint256', 'address', 'uint256', 'bytes32'];

/**
 * GaslessSettler.nonceWord: the Permit2 nonce word (nonce >> 8) that commits a permit to this one
 * settlement (route included). The settler refuses a settlement whose nonce carries another word,
 * so a signature over the nonce is a signature over everything the settlement does.
 */
export function settlementNonceWord(settler: string, executor: string, s: Omit<Settlement, 'nonce'>): bigint {
  const encoded = AbiCoder.defaultAbiCoder().encode(COMMITMENT_TYPES, [
    COMMITMENT_TAG,
    settler,
    executor,
    s.owner,
    s.tokenIn,
    s.amountIn,
    s.deadline,
    s.tokenOut,
    s.minAmountOut,
    s.receiver,
    s.feeAmount,
    keccak256(s.executorData),
  ]);
  return BigInt(keccak256(encoded)) & ((1n << 248n) - 1n);
}

/** Either mode may be sent by anyone: the nonce binds the whole settlement (settlementNonceWord). */
export function encodeSettlement(mode: GaslessMode, settlement: Settlement, signature: string): string {
  return GASLESS_SETTLER_ABI.encodeFunctionData(mode === 2 ? 'settle' : 'settleWithWitness', [settlement, signature]);
}

/** The calldata with a placeholder signature: what a client sees in calldataTemplate before signing. */
export const SIGNATURE_PLACEHOLDER = `0x${'00'.repeat(65)}`;
