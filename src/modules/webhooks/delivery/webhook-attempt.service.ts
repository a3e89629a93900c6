import { Injectable, Logger } from '@nestjs/common';
import { AppConfig } from '../../../config/app-config';
import { MetricsService } from '../../metrics';
import { SecretBox } from '../../../common/crypto/secret-box';
import { authSecretContext, signingSecretContext } from '../registration/secret-contexts';
import { signedHeaders } from '../signing/standard-webhooks';
import { ClaimedDelivery, WebhookDeliveryStore } from '../store/webhook-delivery.store';
import { CircuitGate, WebhookStore } from '../store/webhook.store';
import { postWebhook } from './http-post';
import { notificationBody } from './notification-body';
import { authHeaders } from './outbound-headers';
import { WebhookQueue } from './webhook-queue';

/** Lease beyond the request timeout before the sweep may assume the attempt's worker died. */
const LEASE_MARGIN_MS = 5_000;

/**
 * One attempt of one delivery: claim it, sign and POST, record the outcome, then schedule
 * the retry or hand the turn to the next delivery of the same transaction.
 */
@Injectable()
export class WebhookAttemptService {
  private readonly logger = new Logger(WebhookAttemptService.name);
  private readonly schedule: number[];

  constructor(
    private readonly deliveries: WebhookDeliveryStore,
    private readonly webhooks: WebhookStore,
    private readonly queue: WebhookQueue,
    private readonly box: SecretBox,
    private readonly config: AppConfig,
    private readonly metrics: MetricsService,
  ) {
    this.schedule = config.WEBHOOK_RETRY_SCHEDULE_MS.split(',').map(Number);
  }

  async attempt(deliveryId: string, attemptsMade: number): Promise<void> {
    const lease = this.config.WEBHOOK_TIMEOUT_MS + LEASE_MARGIN_MS;
    const circuit = await this.webhooks.circuitGate(deliveryId, lease);
    const delivery = await this.deliveries.claim(deliveryId, attemptsMade, lease);
    if (circuit.trial && !delivery?.enabled) await this.webhooks.releaseTrial(deliveryId);
    // Already done, attempted by someone else, or waiting for an earlier status: nothing to do now.
    if (!delivery) return;
    if (!delivery.enabled) {
      await this.deliveries.markCancelled(delivery.id);
      this.metrics.webhookDeliveries.inc({ outcome: 'cancelled' });
      return this.handOff(delivery);
    }
    if (circuit.open) return this.shortCircuit(delivery, circuit);

    const started = process.hrtime.bigint();
    const result = await this.send(delivery).catch((err: Error) => ({ ok: false, statusCode: null, error: err.message }));
    const seconds = Number(process.hrtime.bigint() - started) / 1e9;
    this.metrics.webhookAttempts.inc({ result: result.ok ? 'success' : 'failure' });
    this.metrics.webhookAttemptDuration.observe({ result: result.ok ? 'success' : 'failure' }, seconds);
    const { opened } = await this.webhooks.recordAttempt(delivery.webhookId, result.ok ? null : (result.error ?? 'failed'), this.config.WEBHOOK_CIRCUIT_FAILURES, this.config.WEBHOOK_CIRCUIT_COOLDOWN_MS);
    if (opened) this.logger.warn(`webhook ${delivery.webhookId}: circuit open for ${this.config.WEBHOOK_CIRCUIT_COOLDOWN_MS} ms after ${circuit.trial ? 'a failed trial' : `${this.config.WEBHOOK_CIRCUIT_FAILURES} failed attempts in a row`} (${result.error})`);

    if (result.ok) {
      await this.deliveries.markDelivered(delivery.id, result.statusCode!);
      this.metrics.webhookDeliveries.inc({ outcome: 'delivered' });
      this.metrics.webhookDeliveryLag.observe((Date.now() - new Date(delivery.eventCreatedAt).getTime()) / 1000);
      this.logger.log(`delivery ${delivery.id} (tx ${delivery.txId}, webhook ${delivery.webhookId}) delivered on attempt ${delivery.attempts}`);
      return this.handOff(delivery);
    }

    return this.failed(delivery, result.statusCode, result.error ?? 'failed');
  }

  /**
   * The webhook's circuit is open: no request goes out. The attempt counts as failed, as the
   * endpoint's last attempts did, and the next one waits at least until the circuit lets a trial
   * through, so the delivery keeps its place and its schedule and still ends as a dead letter
   * (replayable) when its attempts run out (docs/decisions.md).
   */
  private async shortCircuit(delivery: ClaimedDelivery, circuit: CircuitGate): Promise<void> {
    this.metrics.webhookAttempts.inc({ result: 'short-circuited' });
    const openUntil = circuit.openUntil!;
    const error = `circuit open after ${circuit.failures} failed attempts in a row (last: ${circuit.lastFailure ?? 'unknown'}); no request sent, next trial at ${openUntil.toISOString()}`;
    return this.failed(delivery, null, error, openUntil);
  }

  private async failed(delivery: ClaimedDelivery, statusCode: number | null, error: string, notBefore?: Date): Promise<void> {
    const scheduled = delivery.attempts <= this.schedule.length ? this.schedule[delivery.attempts - 1] : null;
    const retryDelay = scheduled === null || !notBefore ? scheduled : Math.max(scheduled, notBefore.getTime() - Date.now());
    const outcome = await this.deliveries.markFailed(delivery.id, statusCode, error, retryDelay);
    if (outcome === 'retry') {
      this.logger.warn(`delivery ${delivery.id} attempt ${delivery.attempts} failed (${error}); retry in ${retryDelay} ms`);
      await this.queue.enqueue(delivery.id, delivery.attempts, delivery.userId, retryDelay!);
      return;
    }
    this.metrics.webhookDeliveries.inc({ outcome: 'dead' });
    this.logger.warn(`delivery ${delivery.id} dead-lettered after ${delivery.attempts} attempts (${error})`);
    return this.handOff(delivery);
  }

  private async send(delivery: ClaimedDelivery) {
    if (!delivery.signingSealed) throw new Error('account has no signing secret');
    const signingSecret = this.box.open(delivery.signingSealed, signingSecretContext(delivery.userId));
    const authSecret = delivery.secretSealed ? this.box.open(delivery.secretSealed, authSecretContext(delivery.webhookId)) : null;
    const body = notificationBody(delivery.payload);
    // One id per event: the same on every retry and every webhook, so receivers can deduplicate.
    const messageId = `evt_${delivery.eventId}`;
    return postWebhook({
      url: delivery.url,
      headers: {
        ...authHeaders(delivery.authType, authSecret, delivery.apiKeyVar),
        'content-type': 'application/json',
        'user-agent': 'gas-relay-webhooks/1',
        ...signedHeaders(signingSecret, messageId, body),
      },
      body,
      timeoutMs: this.config.WEBHOOK_TIMEOUT_MS,
      allowPrivate: this.config.WEBHOOK_ALLOW_PRIVATE,
    });
  }

  /** The delivery is settled (delivered, dead or cancelled): the next status of the transaction may go. */
  private async handOff(delivery: ClaimedDelivery): Promise<void> {
    const next = await this.deliveries.nextInLine(delivery.webhookId, delivery.txId);
    if (next) await this.queue.enqueue(next.id, next.attempts, delivery.userId, next.delayMs);
  }
}
