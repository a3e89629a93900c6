import { body, type ApiClient } from './http';
import type { RegisteredWebhooks, WebhookRegistration } from './types';

export class WebhooksApi {
  constructor(private readonly api: ApiClient) {}

  /**
   * POST /api/user/register-webhooks: replaces the set; `signingSecret` comes back only when this call issued it.
   * Replacing a registered set or rotating the secret needs the API key (with a JWT: RelayApiError AUTH_007).
   */
  register(webhooks: WebhookRegistration[], options: { rotateSigningSecret?: boolean } = {}): Promise<RegisteredWebhooks> {
    return body(this.api.POST('/api/user/register-webhooks', { body: webhooks, params: { query: options.rotateSigningSecret ? { rotateSigningSecret: 'true' } : {} } }));
  }
}

/** Verification moved to `webhook-verify.ts` (served by `@gas-relay/sdk/server`); re-exported for existing imports. */
export { verifyWebhookSignature, type WebhookVerification } from './webhook-verify';
