import { Webhook, WebhookVerificationError } from 'standardwebhooks';
import type { TxNotification } from './types';

export { WebhookVerificationError };

/** Request headers as Node (`req.headers`), Express or the Fetch API (`request.headers`) give them. */
export type WebhookHeaders = Record<string, string | string[] | undefined> | { get(name: string): string | null };

/** `account.low_balance` (extensions.md "Account policy"). */
export interface LowBalanceEvent {
  event: 'account.low_balance';
  userId: string;
  availableBalance: number;
  threshold: number;
  timestamp: string;
}

/** `account.deposit` (extensions.md "Self-serve funding"). */
export interface DepositEvent {
  event: 'account.deposit';
  userId: string;
  chainId: number;
  txHash: string;
  token: string;
  amount: string;
  creditedUsd: number;
}

/** `webhook.test` (POST /api/webhooks/test). */
export interface WebhookTestEvent {
  event: 'webhook.test';
  userId: string;
  timestamp: string;
}

/** A body the service posts to an account's webhooks; narrow on `event`. */
export type WebhookEvent = TxNotification | LowBalanceEvent | DepositEvent | WebhookTestEvent;

const EVENTS: ReadonlySet<string> = new Set<WebhookEvent['event']>(['tx.status', 'account.low_balance', 'account.deposit', 'webhook.test']);

function isWebhookEvent(value: unknown): value is WebhookEvent {
  return typeof value === 'object' && value !== null && 'event' in value && typeof value.event === 'string' && EVENTS.has(value.event);
}

type SignatureHeaderName = 'webhook-id' | 'webhook-timestamp' | 'webhook-signature';

function signatureHeaders(headers: WebhookHeaders): Record<SignatureHeaderName, string | undefined> {
  const read = (name: string): string | undefined => {
    if (typeof headers.get === 'function') return headers.get(name) ?? undefined;
    const entry = Object.entries(headers).find(([key]) => key.toLowerCase() === name);
    const value: unknown = entry?.[1];
    if (Array.isArray(value)) return typeof value[0] === 'string' ? value[0] : undefined;
    return typeof value === 'string' ? value : undefined;
  };
  return { 'webhook-id': read('webhook-id'), 'webhook-timestamp': read('webhook-timestamp'), 'webhook-signature': read('webhook-signature') };
}

const text = (body: string | Uint8Array): string => (typeof body === 'string' ? body : new TextDecoder().decode(body));

/**
 * Verifies a webhook delivery with the `standardwebhooks` library (the scheme the service signs
 * with: `v1,` base64 HMAC-SHA256 over `<webhook-id>.<webhook-timestamp>.<body>`, timestamps
 * within 5 minutes) and returns the parsed event. Throws `WebhookVerificationError` for a
 * missing header, a stale timestamp, a signature that matches none, or a body that is not one
 * of the service's events. Pass the raw body exactly as received, before any JSON parsing.
 */
export function verifyWebhook(secret: string, rawBody: string | Uint8Array, headers: WebhookHeaders): WebhookEvent {
  const { 'webhook-id': id, 'webhook-timestamp': timestamp, 'webhook-signature': signature } = signatureHeaders(headers);
  if (!id || !timestamp || !signature) throw new WebhookVerificationError('Missing required headers');
  const event = new Webhook(secret).verify(text(rawBody), { 'webhook-id': id, 'webhook-timestamp': timestamp, 'webhook-signature': signature });
  if (!isWebhookEvent(event)) throw new WebhookVerificationError('the signed body is not an event of the relay');
  return event;
}

export interface WebhookVerification {
  /** `signingSecret` of register-webhooks (`whsec_...`). */
  secret: string;
  /** The request's headers (any case). */
  headers: Record<string, string | string[] | undefined>;
  /** The raw request body, exactly as received (a Node Buffer is a Uint8Array). */
  rawBody: string | Uint8Array;
  /** Refuse timestamps further than this from now (default 5 minutes; 0 = no check). */
  toleranceSeconds?: number;
  now?: Date;
}

/** Constant time for equal lengths, so a forged signature learns nothing from timing. */
function sameText(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i += 1) diff |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return diff === 0;
}

/**
 * The boolean check of earlier versions, kept for existing receivers (prefer `verifyWebhook`
 * from `@gas-relay/sdk/server`, which also parses the event). Same rules, computed by the
 * `standardwebhooks` library; `toleranceSeconds` and `now` still apply. False for anything
 * that does not verify, including a malformed secret.
 */
export function verifyWebhookSignature(input: WebhookVerification): boolean {
  const { 'webhook-id': id, 'webhook-timestamp': timestamp, 'webhook-signature': signatures } = signatureHeaders(input.headers);
  if (!id || !timestamp || !signatures || !/^\d+$/.test(timestamp)) return false;
  const tolerance = input.toleranceSeconds ?? 300;
  const now = Math.floor((input.now ?? new Date()).getTime() / 1000);
  if (tolerance > 0 && Math.abs(now - Number(timestamp)) > tolerance) return false;
  let expected: string;
  try {
    expected = new Webhook(input.secret).sign(id, new Date(Number(timestamp) * 1000), text(input.rawBody));
  } catch {
    return false;
  }
  return signatures.split(' ').some((candidate) => candidate.startsWith('v1,') && sameText(candidate, expected));
}
