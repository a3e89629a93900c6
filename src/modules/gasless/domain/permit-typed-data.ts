import { TypedDataEncoder, TypedDataField } from 'ethers';

/** The two acquisition modes the gasless flow accepts (interface.md). */
export type GaslessMode = 2 | 3;

export interface SwapWitness {
  tokenOut: string;
  minAmountOut: string;
  receiver: string;
  feeAmount: string;
}

export interface PermitInput {
  chainId: number;
  permit2: string;
  /** The gasless settler: Permit2 only lets the spender named here pull the tokens. */
  spender: string;
  token: string;
  amount: string;
  nonce: string;
  deadline: string;
  /** Mode 3 only. */
  witness?: SwapWitness;
}

/** eth_signTypedData_v4 payload, with EIP712Domain listed in `types` as wallets expect (interface.md). */
export interface Eip712Payload {
  types: Record<string, TypedDataField[]>;
  domain: { name: string; chainId: number; verifyingContract: string };
  primaryType: string;
  message: Record<string, unknown>;
}

const DOMAIN_TYPE: TypedDataField[] = [
  { name: 'name', type: 'string' },
  { name: 'chainId', type: 'uint256' },
  { name: 'verifyingContract', type: 'address' },
];
const TOKEN_PERMISSIONS: TypedDataField[] = [
  { name: 'token', type: 'address' },
  { name: 'amount', type: 'uint256' },
];
const SWAP_WITNESS: TypedDataField[] = [
  { name: 'tokenOut', type: 'address' },
  { name: 'minAmountOut', type: 'uint256' },
  { name: 'receiver', type: 'address' },
  { name: 'feeAmount', type: 'uint256' },
];

/** What GaslessSettler passes to Permit2 as witnessTypeString (must match the contract byte for byte). */
export const WITNESS_TYPE_STRING =
  'SwapWitness witness)SwapWitness(address tokenOut,uint256 minAmountOut,address receiver,uint256 feeAmount)TokenPermissions(address token,uint256 amount)';

export function permitTypedData(input: PermitInput): Eip712Payload {
  const domain = { name: 'Permit2', chainId: input.chainId, verifyingContract: input.permit2 };
  const base = {
    permitted: { token: input.token, amount: input.amount },
    spender: input.spender,
    nonce: input.nonce,
    deadline: input.deadline,
  };
  if (!input.witness) {
    return {
      types: {
        EIP712Domain: DOMAIN_TYPE,
        PermitTransferFrom: [
          { name: 'permitted', type: 'TokenPermissions' },
          { name: 'spender', type: 'address' },
          { name: 'nonce', type: 'uint256' },
          { name: 'deadline', type: 'uint256' },
        ],
        TokenPermissions: TOKEN_PERMISSIONS,
      },
      domain,
      primaryType: 'PermitTransferFrom',
      message: base,
    };
  }
  return {
    types: {
      EIP712Domain: DOMAIN_TYPE,
      PermitWitnessTransferFrom: [
        { name: 'permitted', type: 'TokenPermissions' },
        { name: 'spender', type: 'address' },
        { name: 'nonce', type: 'uint256' },
        { name: 'deadline', type: 'uint256' },
        { name: 'witness', type: 'SwapWitness' },
      ],
      SwapWitness: SWAP_WITNESS,
      TokenPermissions: TOKEN_PERMISSIONS,
    },
    domain,
    primaryType: 'PermitWitnessTransferFrom',
    message: { ...base, witness: { ...input.witness } },
  };
}

/** ethers wants the struct types without EIP712Domain (it derives the domain type itself). */
export function signingTypes(payload: Eip712Payload): Record<string, TypedDataField[]> {
  const { EIP712Domain: _domain, ...types } = payload.types;
  return types;
}

export function typedDataDigest(payload: Eip712Payload): string {
  return TypedDataEncoder.hash(payload.domain, signingTypes(payload), payload.message);
}
