import { Inject, Injectable, Logger } from '@nestjs/common';
import Redis from 'ioredis';
import { EntityManager } from 'typeorm';
import { AppConfig } from '../../config/app-config';
import { REDIS } from '../../redis/redis.module';
import type { TxRecord, TxStatus } from './tx-record';
import { TxStatusEventStore } from './tx-status-event.store';
import { notificationFor, TxNotification, TxSignal, TxSignalMessage } from './tx-notification';

export function txSignalChannel(config: AppConfig): string {
  return `${config.REDIS_PREFIX}:tx-signals`;
}

/**
 * The one way a transaction's status change is announced. `record` writes the outbox row in
 * the caller's database transaction; `publish` fans the signal out over Redis after commit
 * (sync waiters, sockets). Consumers that must not miss anything read the outbox.
 *
 * Signals published in the same turn of the event loop (a batch of settlements, the hashes of
 * the broadcasts whose answers arrived together) go out as ONE message: the first signal as it
 * always was, the others in its `more` (`TxSignalMessage`), which `TxSignalSubscriber` unpacks:
 * one Redis command and one parse per batch instead of per transaction, in the order they were
 * published. A subscriber of an earlier release (a rolling deploy) reads the first signal and
 * ignores `more`: its waiters of the others fall back to their timeout, nothing fails.
 */
@Injectable()
export class TxStatusPublisher {
  private readonly logger = new Logger(TxStatusPublisher.name);
  private queued: TxSignal[] = [];
  private flushing?: Promise<void>;

  constructor(
    @Inject(REDIS) private readonly redis: Redis,
    private readonly config: AppConfig,
    private readonly events: TxStatusEventStore,
  ) {}

  async record(em: EntityManager, tx: TxRecord, previousStatus: TxStatus | null): Promise<TxNotification> {
    const notification = notificationFor(tx, previousStatus);
    await this.events.insert(notification, em);
    return notification;
  }

  /** Best effort: a lost signal only delays a waiter until its timeout; the outbox keeps the truth. Resolves once sent. */
  publish(kind: TxSignal['kind'], notification: TxNotification, origin?: string | null): Promise<void> {
    return this.enqueue([{ kind, notification, origin }]);
  }

  /** `publish` for many notifications of one kind, in their order. */
  publishMany(kind: TxSignal['kind'], items: ReadonlyArray<{ notification: TxNotification; origin?: string | null }>): Promise<void> {
    if (items.length === 0) return Promise.resolve();
    return this.enqueue(items.map(({ notification, origin }) => ({ kind, notification, origin })));
  }

  private enqueue(signals: TxSignal[]): Promise<void> {
    for (const signal of signals) this.queued.push(signal);
    this.flushing ??= new Promise<void>((resolve) =>
      setImmediate(() => {
        this.flushing = undefined;
        void this.flush().then(resolve);
      }),
    );
    return this.flushing;
  }

  private async flush(): Promise<void> {
    const signals = this.queued;
    this.queued = [];
    if (signals.length === 0) return;
    try {
      const [first, ...more] = signals;
      const message: TxSignalMessage = more.length > 0 ? { ...first, more } : first;
      await this.redis.publish(txSignalChannel(this.config), JSON.stringify(message));
    } catch (err) {
      const ids = signals.map((s) => `${s.kind} ${s.notification.txId}`);
      this.logger.warn(`could not publish ${ids.length === 1 ? `the ${ids[0]} signal` : `${ids.length} signals (${ids.slice(0, 3).join(', ')}, ...)`}: ${(err as Error).message}`);
    }
  }
}
