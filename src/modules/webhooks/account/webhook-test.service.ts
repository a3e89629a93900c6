import { randomUUID } from 'node:crypto';
import { Injectable, Logger } from '@nestjs/common';
import { AppError } from '../../../common/errors/app-error';
import { SecretBox } from '../../../common/crypto/secret-box';
import { AppConfig } from '../../../config/app-config';
import { OutboundResult, postWebhook } from '../delivery/http-post';
import { authHeaders } from '../delivery/outbound-headers';
import { WebhookTestResultDto } from '../dto/webhook-test.dto';
import { authSecretContext, signingSecretContext } from '../registration/secret-contexts';
import { signedHeaders } from '../signing/standard-webhooks';
import { WebhookSigningKeyStore } from '../store/webhook-signing-key.store';
import { WebhookStore } from '../store/webhook.store';

/**
 * POST /api/webhooks/test: one signed `{event: "webhook.test", userId, timestamp}` to each
 * enabled webhook of the account, now, through the same SSRF-checked, pinned, time-limited POST
 * as deliveries (no retry, no delivery row, no circuit change: it is the team checking its
 * endpoint), answered per webhook. Whatever event filter a webhook has, it gets the test.
 */
@Injectable()
export class WebhookTestService {
  private readonly logger = new Logger(WebhookTestService.name);

  constructor(
    private readonly webhooks: WebhookStore,
    private readonly signingKeys: WebhookSigningKeyStore,
    private readonly box: SecretBox,
    private readonly config: AppConfig,
  ) {}

  async send(userId: string): Promise<WebhookTestResultDto[]> {
    if (!this.box.enabled) throw new AppError('SYSTEM_002', 'webhooks are disabled: WEBHOOK_ENCRYPTION_KEY is not set');
    const enabled = (await this.webhooks.listOf(userId)).filter((w) => w.enabled);
    if (enabled.length === 0) return [];
    const key = await this.signingKeys.transaction((em) => this.signingKeys.find(userId, em));
    if (!key) throw new AppError('SYSTEM_002', 'the account has no webhook signing secret');
    const signingSecret = this.box.open(key.secretSealed, signingSecretContext(userId));
    const body = JSON.stringify({ event: 'webhook.test', userId, timestamp: new Date().toISOString() });
    const messageId = `test_${randomUUID()}`;
    return Promise.all(
      enabled.map(async (w) => {
        const started = performance.now();
        const authSecret = w.secretSealed ? this.box.open(w.secretSealed, authSecretContext(w.id)) : null;
        const result = await postWebhook({
          url: w.url,
          headers: { ...authHeaders(w.authType, authSecret, w.apiKeyVar), 'content-type': 'application/json', 'user-agent': 'gas-relay-webhooks/1', ...signedHeaders(signingSecret, messageId, body) },
          body,
          timeoutMs: this.config.WEBHOOK_TIMEOUT_MS,
          allowPrivate: this.config.WEBHOOK_ALLOW_PRIVATE,
        }).catch((err: Error): OutboundResult => ({ ok: false, statusCode: null, error: err.message }));
        const ms = Math.round(performance.now() - started);
        if (result.refused) {
          // What a name resolves to stays in the log, as at registration: telling the caller would map internal DNS for them.
          this.logger.warn(`webhook test to ${w.url} refused: ${result.error}`);
          return { url: w.url, status: null, ms, error: 'refused: address not allowed' };
        }
        return { url: w.url, status: result.statusCode, ms, ...(result.ok ? {} : { error: result.error ?? 'failed' }) };
      }),
    );
  }
}
