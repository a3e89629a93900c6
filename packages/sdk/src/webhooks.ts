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

/** Verification moved to `webhook-verify.ts` (served by `@gas-relay/sdk/server`); re-exported for existing imports. */
export { verifyWebhookSignature, type WebhookVerification } from './webhook-verify';
