import { Inject, Injectable, Logger } from '@nestjs/common';
import Redis from 'ioredis';
import { EntityManager } from 'typeorm';
import { AppConfig } from '../../config/app-config';
import { REDIS } from '../../redis/redis.module';
import type { RelayTransactionEntity, TxStatus } from '../relay/store/relay-transaction.entity';
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
  ) {}

  async record(em: EntityManager, tx: RelayTransactionEntity, previousStatus: TxStatus | null): Promise<TxNotification> {
    const notification = notificationFor(tx, previousStatus);
    await em.query(this.outboxInsert('VALUES ($1, $2, $3, $4, $5)'), [tx.id, tx.userId, tx.status, previousStatus, JSON.stringify(notification)]);
    return notification;
  }

  /**
   * The outbox INSERT, for statements that write the status change themselves (single-statement
   * submission and settlement): `rows` supplies (tx_id, user_id, status, previous_status, payload).
   */
  outboxInsert(rows: string): string {
    return `INSERT INTO tx_status_events (tx_id, user_id, status, previous_status, payload) ${rows}`;
  }

  /** Best effort: a lost signal only delays a waiter until its timeout; the outbox keeps the truth. */
  async publish(kind: TxSignal['kind'], notification: TxNotification, label?: string): Promise<void> {
    try {
      await this.redis.publish(txSignalChannel(this.config), JSON.stringify({ kind, notification, label } satisfies TxSignal));
    } catch (err) {
      this.logger.warn(`could not publish ${kind} signal for ${notification.txId}: ${(err as Error).message}`);
    }
  }
}
