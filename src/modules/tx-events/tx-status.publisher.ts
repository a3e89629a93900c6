import { Inject, Injectable, Logger } from '@nestjs/common';
import Redis from 'ioredis';
import { EntityManager } from 'typeorm';
import { AppConfig } from '../../config/app-config';
import { REDIS } from '../../redis/redis.module';
import type { TxRecord, TxStatus } from './tx-record';
import { TxStatusEventStore } from './tx-status-event.store';
import { notificationFor, TxNotification, TxSignal } from './tx-notification';

export function txSignalChannel(config: AppConfig): string {
  return `${config.REDIS_PREFIX}:tx-signals`;
}

/**
 * The one way a transaction's status change is announced. `record` writes the outbox row in
 * the caller's database transaction; `publish` fans the signal out over Redis after commit
 * (sync waiters, sockets). Consumers that must not miss anything read the outbox.
 */
@Injectable()
export class TxStatusPublisher {
  private readonly logger = new Logger(TxStatusPublisher.name);

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

  /** Best effort: a lost signal only delays a waiter until its timeout; the outbox keeps the truth. */
  async publish(kind: TxSignal['kind'], notification: TxNotification, origin?: string | null): Promise<void> {
    try {
      await this.redis.publish(txSignalChannel(this.config), JSON.stringify({ kind, notification, origin } satisfies TxSignal));
    } catch (err) {
      this.logger.warn(`could not publish ${kind} signal for ${notification.txId}: ${(err as Error).message}`);
    }
  }
}
