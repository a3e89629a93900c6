import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * Standard Webhooks (standardwebhooks.com, the scheme Svix uses): the receiver verifies
 * `webhook-signature` = `v1,<base64 HMAC-SHA256(key, "<id>.<timestamp>.<body>")>` where the
 * key is the base64 after `whsec_` in the signing secret.
 */
const PREFIX = 'whsec_';

/** 24 random bytes, as Svix issues them. */
export function newSigningSecret(): string {
  return PREFIX + randomBytes(24).toString('base64');
}

function keyOf(secret: string): Buffer {
  if (!secret.startsWith(PREFIX)) throw new Error('signing secret must start with whsec_');
  const key = Buffer.from(secret.slice(PREFIX.length), 'base64');
  if (key.length < 16) throw new Error('signing secret is too short');
  return key;
}

export function signPayload(secret: string, id: string, timestampSeconds: number, body: string): string {
  const mac = createHmac('sha256', keyOf(secret)).update(`${id}.${timestampSeconds}.${body}`).digest('base64');
  return `v1,${mac}`;
}

export interface WebhookHeaders {
  'webhook-id': string;
  'webhook-timestamp': string;
  'webhook-signature': string;
}

export function signedHeaders(secret: string, id: string, body: string, now = new Date()): WebhookHeaders {
  const timestamp = Math.floor(now.getTime() / 1000);
  return { 'webhook-id': id, 'webhook-timestamp': String(timestamp), 'webhook-signature': signPayload(secret, id, timestamp, body) };
}

/**
 * What a receiver does; the service itself never verifies, but keeping the check next to
 * the signer documents the contract (several space-separated signatures may be sent during
 * a secret rotation, any one matching is enough).
 */
export function verifySignature(secret: string, headers: WebhookHeaders, body: string, toleranceSeconds = 300, now = new Date()): boolean {
  const timestamp = Number(headers['webhook-timestamp']);
  if (!Number.isInteger(timestamp) || Math.abs(now.getTime() / 1000 - timestamp) > toleranceSeconds) return false;
  const expected = Buffer.from(signPayload(secret, headers['webhook-id'], timestamp, body).slice(3), 'base64');
  return headers['webhook-signature'].split(' ').some((candidate) => {
    const [version, mac] = candidate.split(',', 2);
    if (version !== 'v1' || !mac) return false;
    const given = Buffer.from(mac, 'base64');
    return given.length === expected.length && timingSafeEqual(given, expected);
  });
}
