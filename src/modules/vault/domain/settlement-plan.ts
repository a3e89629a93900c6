import { randomBytes } from 'node:crypto';
import { TypedDataEncoder } from 'ethers';
import { DELEGATE_IFACE, ERC20_IFACE, ERC4626_IFACE } from './vault-abi';
import type { AllocationLeg, PlannedCall } from './vault-types';

/** decisions.md: the EIP-712 types the SettlementDelegate checks (contracts/SettlementDelegate.sol). */
export const EXECUTE_TYPES = {
  Execute: [
    { name: 'calls', type: 'Call[]' },
    { name: 'nonce', type: 'uint256' },
    { name: 'deadline', type: 'uint256' },
  ],
  Call: [
    { name: 'target', type: 'address' },
    { name: 'value', type: 'uint256' },
    { name: 'data', type: 'bytes' },
  ],
};

/** The domain is the user's own EOA: the delegate runs as that address. */
export function executeDomain(chainId: number, user: string) {
  return { name: 'SettlementDelegate', version: '1', chainId, verifyingContract: user };
}

export function executeDigest(chainId: number, user: string, calls: readonly PlannedCall[], nonce: bigint, deadline: bigint): string {
  return TypedDataEncoder.hash(executeDomain(chainId, user), EXECUTE_TYPES, { calls, nonce, deadline });
}

/** Unordered nonce (the delegate keeps a used-set): random, so concurrent quotes never collide. */
export function newExecuteNonce(): bigint {
  return BigInt(`0x${randomBytes(16).toString('hex')}`);
}

/** approve + deposit per venue; shares are minted straight to the user. */
export function depositCalls(asset: string, user: string, legs: readonly AllocationLeg[]): PlannedCall[] {
  return legs.flatMap((leg) => [
    { target: asset, value: '0', data: ERC20_IFACE.encodeFunctionData('approve', [leg.vault, BigInt(leg.amount)]) },
    { target: leg.vault, value: '0', data: ERC4626_IFACE.encodeFunctionData('deposit', [BigInt(leg.amount), user]) },
  ]);
}

export function redeemCalls(vault: string, user: string, shares: bigint): PlannedCall[] {
  return [{ target: vault, value: '0', data: ERC4626_IFACE.encodeFunctionData('redeem', [shares, user, user]) }];
}

/** Calldata of the type-4 transaction sent to the user's EOA. */
export function encodeExecute(calls: readonly PlannedCall[], nonce: bigint, deadline: bigint, signature: string): string {
  return DELEGATE_IFACE.encodeFunctionData('execute', [calls.map((c) => [c.target, BigInt(c.value), c.data]), nonce, deadline, signature]);
}
