/**
 * Shape of a signed exchange request and its field-by-field validation. Purely syntactic: whether the
 * signature recovers to the right trader is exchange-signature.ts's concern. Format: exchange-action.ts.
 */
import { canonicalJson, isPlainObject, NotCanonicalJsonError } from './canonical-json';

/** An exchange action: a JSON object naming what to do in `type`; the rest is the exchange's business. */
export interface ExchangeAction {
  readonly type: string;
  readonly [field: string]: unknown;
}

export interface ExchangeRequest {
  action: ExchangeAction;
  /** Milliseconds since the epoch when signed; unique per trader. */
  nonce: number;
  /** 65 bytes r ‖ s ‖ v as 0x hex, v = 27 or 28, s in the lower half of the curve order. */
  signature: string;
}

export type ExchangeRequestResult = { ok: true; request: ExchangeRequest } | { ok: false; reason: string };

/** Cap on the request JSON; real actions are a few hundred bytes. */
export const MAX_EXCHANGE_REQUEST_BYTES = 16 * 1024;

const FIELDS = ['action', 'nonce', 'signature'] as const;
const SIGNATURE_HEX = /^0x[0-9a-fA-F]{130}$/;
const SECP256K1_N = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n;

/** Checks a decoded JSON value is exactly `{action, nonce, signature}` with every field well formed. */
export function parseExchangeRequest(value: unknown): ExchangeRequestResult {
  if (!isPlainObject(value)) return { ok: false, reason: 'request must be a JSON object {action, nonce, signature}' };
  const unexpected = Object.keys(value).find((key) => !(FIELDS as readonly string[]).includes(key));
  if (unexpected !== undefined) return { ok: false, reason: `unexpected field ${JSON.stringify(unexpected)}` };
  const missing = FIELDS.find((key) => !Object.prototype.hasOwnProperty.call(value, key));
  if (missing !== undefined) return { ok: false, reason: `missing field "${missing}"` };

  const problem = actionProblem(value.action) ?? nonceProblem(value.nonce) ?? signatureProblem(value.signature);
  if (problem !== undefined) return { ok: false, reason: problem };
  // A fresh object, so nothing but the three fields is ever forwarded.
  return { ok: true, request: { action: value.action as ExchangeAction, nonce: value.nonce as number, signature: value.signature as string } };
}

export function actionProblem(action: unknown): string | undefined {
  if (!isPlainObject(action)) return 'action must be a JSON object';
  if (typeof action.type !== 'string' || action.type.length === 0) return 'action.type must be a non-empty string';
  try {
    canonicalJson(action, 'action');
  } catch (err) {
    if (err instanceof NotCanonicalJsonError) return err.message;
    throw err;
  }
  return undefined;
}

export function nonceProblem(nonce: unknown): string | undefined {
  if (typeof nonce !== 'number' || !Number.isSafeInteger(nonce) || nonce <= 0) return 'nonce must be a positive safe integer';
  return undefined;
}

export function signatureProblem(signature: unknown): string | undefined {
  if (typeof signature !== 'string' || !SIGNATURE_HEX.test(signature)) return 'signature must be 65 bytes of 0x-prefixed hex (r, s, v)';
  const { r, s, v } = splitSignature(signature);
  if (v !== 27 && v !== 28) return 'signature v must be 27 or 28';
  if (r === 0n || r >= SECP256K1_N) return 'signature r is out of range';
  // High-s twins are valid ECDSA but let anyone mint a second signature for the same action (EIP-2).
  if (s === 0n || s > SECP256K1_N / 2n) return 'signature s is out of range (must be low-s)';
  return undefined;
}

/** Assumes the string passed signatureProblem's hex check. */
export function splitSignature(signature: string): { r: bigint; s: bigint; v: number } {
  return {
    r: BigInt(`0x${signature.slice(2, 66)}`),
    s: BigInt(`0x${signature.slice(66, 130)}`),
    v: parseInt(signature.slice(130, 132), 16),
  };
}
