import { Interface, Signature, TypedDataDomain, Wallet, HDNodeWallet, ZeroHash, keccak256, AbiCoder } from 'ethers';

/** The BridgeSpoke calls and events the service uses (contracts/BridgeSpoke.sol). */
export const SPOKE_ABI = new Interface([
  'function deposit((address inputToken,uint256 inputAmount,uint256 destinationChainId,address outputToken,uint256 outputAmount,address recipient,uint64 fillDeadline,bytes32 ref) p) returns (bytes32)',
  'function swapAndDeposit((address inputToken,uint256 inputAmount,uint256 destinationChainId,address outputToken,uint256 outputAmount,address recipient,uint64 fillDeadline,bytes32 ref) p, address tokenIn, uint256 amountIn, bytes executorData) payable returns (bytes32)',
  'function fill((uint256 originChainId,bytes32 depositId,address outputToken,uint256 amount,address recipient,uint64 fillDeadline,uint256 minAmountOut,address swapTokenOut,bytes executorData) f, bytes signature)',
  'function repay(bytes32 depositId, bytes signature)',
  'function refund(bytes32 depositId, bytes signature)',
  'function liquidity(address token) view returns (uint256)',
  'function filled(bytes32 key) view returns (bool)',
  'function escrows(bytes32 depositId) view returns (address depositor, address token, uint256 amount, uint64 fillDeadline, uint8 state)',
  'function filler() view returns (address)',
  'function withdrawLiquidity(address token, uint256 amount, address to)',
  'event Deposited(bytes32 indexed depositId, address indexed depositor, address inputToken, uint256 inputAmount, uint256 destinationChainId, address outputToken, uint256 outputAmount, address recipient, uint64 fillDeadline, bytes32 ref)',
  'event Filled(bytes32 indexed depositId, uint256 indexed originChainId, address outputToken, uint256 amount, address recipient, address relayer)',
  'event Repaid(bytes32 indexed depositId, address token, uint256 amount)',
  'event Refunded(bytes32 indexed depositId, address depositor, address token, uint256 amount)',
]);

export const DEPOSITED_TOPIC = SPOKE_ABI.getEvent('Deposited')!.topicHash;
export const FILLED_TOPIC = SPOKE_ABI.getEvent('Filled')!.topicHash;
export const REPAID_TOPIC = SPOKE_ABI.getEvent('Repaid')!.topicHash;
export const REFUNDED_TOPIC = SPOKE_ABI.getEvent('Refunded')!.topicHash;

/** Escrow states of `BridgeSpoke.escrows` (0: no such deposit). */
export const ESCROW_OPEN = 1n;
export const ESCROW_REPAID = 2n;
export const ESCROW_REFUNDED = 3n;

export interface DepositParams {
  inputToken: string;
  inputAmount: bigint;
  destinationChainId: number;
  outputToken: string;
  outputAmount: bigint;
  recipient: string;
  fillDeadline: number;
  ref: string;
}

export interface FillOrder {
  originChainId: number;
  depositId: string;
  outputToken: string;
  amount: bigint;
  recipient: string;
  fillDeadline: number;
  minAmountOut: bigint;
  swapTokenOut: string;
  executorData: string;
}

const FILL_TYPES = {
  Fill: [
    { name: 'originChainId', type: 'uint256' },
    { name: 'depositId', type: 'bytes32' },
    { name: 'outputToken', type: 'address' },
    { name: 'amount', type: 'uint256' },
    { name: 'recipient', type: 'address' },
    { name: 'fillDeadline', type: 'uint64' },
    { name: 'minAmountOut', type: 'uint256' },
    { name: 'executorDataHash', type: 'bytes32' },
  ],
};
const REPAY_TYPES = { Repay: [{ name: 'depositId', type: 'bytes32' }] };
const REFUND_TYPES = { Refund: [{ name: 'depositId', type: 'bytes32' }] };

const domain = (chainId: number, spoke: string): TypedDataDomain => ({ name: 'BridgeSpoke', version: '1', chainId, verifyingContract: spoke });

/** The spoke's `fillKey`: a deposit is filled at most once per (origin chain, deposit id). */
export function fillKey(originChainId: number, depositId: string): string {
  return keccak256(AbiCoder.defaultAbiCoder().encode(['uint256', 'bytes32'], [originChainId, depositId]));
}

/** The filler's EIP-712 authorisations; the key signs nothing else (docs/security.md, "Bridge"). */
export class FillerSigner {
  constructor(private readonly wallet: Wallet | HDNodeWallet) {}

  get address(): string {
    return this.wallet.address;
  }

  async fill(chainId: number, spoke: string, f: FillOrder): Promise<string> {
    const executorDataHash = keccak256(AbiCoder.defaultAbiCoder().encode(['address', 'bytes32'], [f.swapTokenOut, keccak256(f.executorData)]));
    const value = {
      originChainId: f.originChainId,
      depositId: f.depositId,
      outputToken: f.outputToken,
      amount: f.amount,
      recipient: f.recipient,
      fillDeadline: f.fillDeadline,
      minAmountOut: f.minAmountOut,
      executorDataHash,
    };
    return Signature.from(await this.wallet.signTypedData(domain(chainId, spoke), FILL_TYPES, value)).serialized;
  }

  async repay(chainId: number, spoke: string, depositId: string): Promise<string> {
    return Signature.from(await this.wallet.signTypedData(domain(chainId, spoke), REPAY_TYPES, { depositId })).serialized;
  }

  async refund(chainId: number, spoke: string, depositId: string): Promise<string> {
    return Signature.from(await this.wallet.signTypedData(domain(chainId, spoke), REFUND_TYPES, { depositId })).serialized;
  }
}

export const NO_EXECUTOR_DATA = '0x';
export { ZeroHash };
