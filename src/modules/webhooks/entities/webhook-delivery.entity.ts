import { Column, CreateDateColumn, Entity, Index, PrimaryGeneratedColumn, Unique, UpdateDateColumn } from 'typeorm';

/** pending: to be (re)tried; delivered; dead: retries exhausted (dead letter); cancelled: its webhook was disabled. */
export const DELIVERY_STATUSES = ['pending', 'delivered', 'dead', 'cancelled'] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];

/**
 * One status event for one webhook: the durable record behind the BullMQ attempt jobs, so
 * nothing is lost when Redis or a worker is.
 */
@Entity('webhook_deliveries')
@Unique(['webhookId', 'eventId'])
@Index(['webhookId', 'txId', 'eventId'])
export class WebhookDeliveryEntity {
  @PrimaryGeneratedColumn({ type: 'bigint' })
  id: string;

  @Column({ name: 'webhook_id', type: 'uuid' })
  webhookId: string;

  /** tx_status_events.id; also the order of deliveries of one transaction. */
  @Column({ name: 'event_id', type: 'bigint' })
  eventId: string;

  /** Null for an account event (no transaction to keep in order). */
  @Column({ name: 'tx_id', type: 'uuid', nullable: true })
  txId: string | null;

  @Column({ name: 'user_id', type: 'uuid' })
  userId: string;

  @Column({ type: 'varchar', length: 16 })
  status: DeliveryStatus;

  @Column({ type: 'int', default: 0 })
  attempts: number;

  /** When the next attempt is due; while an attempt runs, the end of its lease. */
  @Column({ name: 'next_attempt_at', type: 'timestamptz' })
  nextAttemptAt: Date;

  @Column({ name: 'last_status_code', type: 'int', nullable: true })
  lastStatusCode: number | null;

  @Column({ name: 'last_error', type: 'text', nullable: true })
  lastError: string | null;

  @Column({ name: 'delivered_at', type: 'timestamptz', nullable: true })
  deliveredAt: Date | null;

  @Column({ name: 'dead_at', type: 'timestamptz', nullable: true })
  deadAt: Date | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt: Date;
}
