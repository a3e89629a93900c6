import { Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import Redis from 'ioredis';
import { runDetached } from '../../../common/trace/tracing';
import { AppConfig } from '../../../config/app-config';
import { AccountSignals, TxSignalSubscriber, TxStatusEventStore } from '../../tx-events';
import { SecretBox } from '../../../common/crypto/secret-box';
import { WebhookDeliveryStore } from '../store/webhook-delivery.store';
import { webhookWakeChannel } from '../webhook-wake';
import { WebhookQueue } from './webhook-queue';

const BATCH = 200;

/**
 * Turns outbox events into deliveries and attempt jobs. Woken by every status and account signal (low
 * latency) and by operator replays; a periodic sweep catches whatever a lost signal or a
 * lost job left behind. Safe to run in any number of workers: batches are taken with
 * FOR UPDATE SKIP LOCKED and every attempt is claimed in the database.
 */
@Injectable()
export class WebhookDispatcher implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(WebhookDispatcher.name);
  private running: Promise<void> | null = null;
  private again = false;
  private sweepNext = false;
  private timer?: NodeJS.Timeout;
  private unlisten?: () => void;
  private unlistenAccount?: () => void;
  private wakeConnection?: Redis;
  private stopped = false;

  constructor(
    private readonly deliveries: WebhookDeliveryStore,
    private readonly outbox: TxStatusEventStore,
    private readonly queue: WebhookQueue,
    private readonly signals: TxSignalSubscriber,
    private readonly accountSignals: AccountSignals,
    private readonly box: SecretBox,
    private readonly config: AppConfig,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    if (!this.box.enabled) {
      this.logger.warn('webhook delivery is off: WEBHOOK_ENCRYPTION_KEY is not set');
      return;
    }
    this.unlisten = await this.signals.listen(null, (signal) => {
      if (signal.kind === 'status') this.wake();
    });
    this.unlistenAccount = await this.accountSignals.listen(() => this.wake());
    this.wakeConnection = new Redis(this.config.REDIS_URL, { maxRetriesPerRequest: null });
    this.wakeConnection.on('message', () => this.wake(true));
    this.wakeConnection.on('error', (err: Error) => this.logger.warn(`webhook wake subscription: ${err.message}`));
    await this.wakeConnection.subscribe(webhookWakeChannel(this.config));
    this.timer = setInterval(() => this.wake(true), this.config.WEBHOOK_SWEEP_INTERVAL_MS);
    this.wake(true);
  }

  async onApplicationShutdown(): Promise<void> {
    this.stopped = true;
    clearInterval(this.timer);
    this.unlisten?.();
    this.unlistenAccount?.();
    await this.wakeConnection?.quit().catch(() => this.wakeConnection?.disconnect());
    await this.running;
  }

  /** Runs a pass now, or once more right after the current one (signals arriving mid-pass are not lost). */
  private wake(sweep = false): void {
    if (this.stopped) return;
    if (sweep) this.sweepNext = true;
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = runDetached(`webhook-dispatch-${Date.now()}`, () => this.loop()).finally(() => {
      this.running = null;
    });
  }

  private async loop(): Promise<void> {
    do {
      this.again = false;
      const sweep = this.sweepNext;
      this.sweepNext = false;
      try {
        await this.dispatchAll();
        if (sweep) await this.requeueDue();
      } catch (err) {
        this.logger.warn(`webhook dispatch pass failed: ${(err as Error).message}`);
      }
    } while (this.again && !this.stopped);
  }

  private async dispatchAll(): Promise<void> {
    for (;;) {
      const { events, deliveries } = await this.dispatchBatch(BATCH);
      for (const d of deliveries) await this.queue.enqueue(d.id, 0, d.userId);
      if (events < BATCH || this.stopped) return;
    }
  }

  /**
   * Takes a batch of undispatched events (rows locked, other dispatchers skip them), creates a
   * delivery per enabled webhook of the event's account, and moves the cursor, in one
   * transaction. Returns the new deliveries and how many events were taken.
   */
  private dispatchBatch(limit: number): Promise<{ events: number; deliveries: Array<{ id: string; userId: string }> }> {
    return this.deliveries.transaction(async (em) => {
      const eventIds = await this.outbox.takeUndispatched(limit, em);
      if (eventIds.length === 0) return { events: 0, deliveries: [] };
      const deliveries = await this.deliveries.createForEvents(eventIds, em);
      await this.outbox.markDispatched(eventIds, em);
      return { events: eventIds.length, deliveries };
    });
  }

  /** Due deliveries whose job is gone (Redis lost, worker died mid-attempt, replayed by an operator). */
  private async requeueDue(): Promise<void> {
    for (const d of await this.deliveries.dueHeads(500)) await this.queue.enqueue(d.id, d.attempts, d.userId);
  }
}
