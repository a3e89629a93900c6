/**
 * EIP-712 signing of exchange actions. The typed message holds a hash of the action rather than the
 * action itself because actions are free-form JSON that no fixed EIP-712 struct could describe; the
 * chain id in the domain keeps a testnet signature from being replayed on mainnet.
 */
import { keccak256, recoverAddress, Signature, Signer, toUtf8Bytes, TypedDataDomain, TypedDataEncoder, TypedDataField } from 'ethers';
import { canonicalJson } from './canonical-json';
import { actionProblem, ExchangeAction, ExchangeRequest, nonceProblem, signatureProblem, splitSignature } from './exchange-request';

export const EXCHANGE_EIP712_NAME = 'Exchange';
export const EXCHANGE_EIP712_VERSION = '1';

export const EXCHANGE_EIP712_TYPES: Record<string, TypedDataField[]> = {
  Action: [
    { name: 'actionHash', type: 'bytes32' },
    { name: 'nonce', type: 'uint64' },
  ],
};

/** Thrown for input that cannot be signed or verified at all (as opposed to a signature by someone else). */
export class InvalidExchangeRequestError extends Error {}

export function exchangeDomain(chainId: number): TypedDataDomain {
  if (!Number.isSafeInteger(chainId) || chainId <= 0) throw new InvalidExchangeRequestError(`chain id ${chainId} is not a positive integer`);
  return { name: EXCHANGE_EIP712_NAME, version: EXCHANGE_EIP712_VERSION, chainId };
}

/** keccak256 of the UTF-8 canonical JSON of the action (canonical-json.ts). */
export function exchangeActionHash(action: ExchangeAction): string {
  return keccak256(toUtf8Bytes(canonicalJson(action, 'action')));
}

/** The EIP-712 digest a trader signs for this action and nonce on this chain. */
export function exchangeDigest(chainId: number, action: ExchangeAction, nonce: number): string {
  assertValid(actionProblem(action) ?? nonceProblem(nonce));
  return TypedDataEncoder.hash(exchangeDomain(chainId), EXCHANGE_EIP712_TYPES, { actionHash: exchangeActionHash(action), nonce });
}

export async function signExchangeAction(signer: Signer, chainId: number, action: ExchangeAction, nonce: number): Promise<ExchangeRequest> {
  assertValid(actionProblem(action) ?? nonceProblem(nonce));
  const raw = await signer.signTypedData(exchangeDomain(chainId), EXCHANGE_EIP712_TYPES, { actionHash: exchangeActionHash(action), nonce });
  // Re-serialized so the result is always lowercase r ‖ s ‖ v with v = 27/28, whatever the signer returned.
  const signature = Signature.from(raw).serialized;
  assertValid(signatureProblem(signature));
  return { action, nonce, signature };
}

/**
 * The lowercase address whose key signed the request for this chain. A well-formed signature by
 * another key or for another chain recovers to some other address; comparing it with the expected
 * trader is the caller's job. Throws InvalidExchangeRequestError on malformed input.
 */
export function recoverExchangeSigner(chainId: number, request: ExchangeRequest): string {
  assertValid(signatureProblem(request.signature));
  const digest = exchangeDigest(chainId, request.action, request.nonce);
  const { r, s, v } = splitSignature(request.signature);
  try {
    return recoverAddress(digest, { r: toBytes32(r), s: toBytes32(s), v }).toLowerCase();
  } catch (err) {
    // An r that is not the x coordinate of any curve point passes the range checks but recovers nothing.
    throw new InvalidExchangeRequestError(`signature does not recover: ${(err as Error).message}`);
  }
}

function assertValid(problem: string | undefined): void {
  if (problem !== undefined) throw new InvalidExchangeRequestError(problem);
}

function toBytes32(value: bigint): string {
  return `0x${value.toString(16).padStart(64, '0')}`;
}
