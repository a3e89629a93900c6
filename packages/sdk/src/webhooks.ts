import { createHmac, timingSafeEqual } from 'node:crypto';
import { body, data, type ApiClient } from './http';
import type { RegisteredWebhooks, WebhookRegistration, WebhookTestResult } from './types';

export class WebhooksApi {
  constructor(private readonly api: ApiClient) {}

  /**
   * POST /api/user/register-webhooks: replaces the set; `signingSecret` comes back only when this call issued it.
   * Replacing a registered set or rotating the secret needs the API key (with a JWT: RelayApiError AUTH_007).
   */
  register(webhooks: WebhookRegistration[], options: { rotateSigningSecret?: boolean } = {}): Promise<RegisteredWebhooks> {
    return body(this.api.POST('/api/user/register-webhooks', { body: webhooks, params: { query: options.rotateSigningSecret ? { rotateSigningSecret: 'true' } : {} } }));
  }

  /** POST /api/webhooks/test: a signed `{event: "webhook.test", userId, timestamp}` to each enabled webhook now, answered per webhook. */
  test(): Promise<WebhookTestResult[]> {
    return data(this.api.POST('/api/webhooks/test'));
  }
}

export interface WebhookVerification {
  /** `signingSecret` of register-webhooks (`whsec_...`). */
  secret: string;
  /** The request's headers (any case). */
  headers: Record<string, string | string[] | undefined>;
  /** The raw request body, exactly as received. */
  rawBody: string | Buffer;
  /** Refuse timestamps further than this from now (default 5 minutes; 0 = no check). */
  toleranceSeconds?: number;
  now?: Date;
}

/**
 * Standard Webhooks verification: base64(HMAC-SHA256(key, "<id>.<timestamp>.<body>")) must equal
 * one of the `v1,` signatures of `webhook-signature`, and the timestamp must be recent.
 */
export function verifyWebhookSignature(input: WebhookVerification): boolean {
  const header = (name: string): string | undefined => {
    const entry = Object.entries(input.headers).find(([key]) => key.toLowerCase() === name);
    const value = entry?.[1];
    return Array.isArray(value) ? value[0] : value;
  };
  const id = header('webhook-id');
  const timestamp = header('webhook-timestamp');
  const signatures = header('webhook-signature');
  if (!id || !timestamp || !signatures || !/^\d+$/.test(timestamp)) return false;
  const tolerance = input.toleranceSeconds ?? 300;
  const now = Math.floor((input.now ?? new Date()).getTime() / 1000);
  if (tolerance > 0 && Math.abs(now - Number(timestamp)) > tolerance) return false;
  const key = Buffer.from(input.secret.replace(/^whsec_/, ''), 'base64');
  const raw = typeof input.rawBody === 'string' ? input.rawBody : input.rawBody.toString('utf8');
  const expected = createHmac('sha256', key).update(`${id}.${timestamp}.${raw}`).digest();
  return signatures.split(' ').some((part) => {
    const [version, value] = part.split(',');
    if (version !== 'v1' || !value) return false;
    const given = Buffer.from(value, 'base64');
    return given.length === expected.length && timingSafeEqual(given, expected);
  });
}
