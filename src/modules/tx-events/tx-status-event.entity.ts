import { Column, CreateDateColumn, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';

/**
 * Outbox of transaction status changes, written in the same database transaction as the
 * change itself, so no notification is lost when the process dies right after a commit.
 */
@Entity('tx_status_events')
@Index(['txId', 'id'])
export class TxStatusEventEntity {
  @PrimaryGeneratedColumn({ type: 'bigint' })
  id: string;

  /** Null for an account event (`status` low_balance): no transaction, no per-transaction order. */
  @Column({ name: 'tx_id', type: 'uuid', nullable: true })
  txId: string | null;

  @Column({ name: 'user_id', type: 'uuid' })
  userId: string;

  @Column({ type: 'varchar', length: 16 })
  status: string;

  @Column({ name: 'previous_status', type: 'varchar', length: 16, nullable: true })
  previousStatus: string | null;

  /** The TxNotification body of decisions.md. */
  @Column({ type: 'jsonb' })
  payload: Record<string, unknown>;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  /** Set once the webhook dispatcher has turned the event into deliveries (the outbox cursor). */
  @Column({ name: 'dispatched_at', type: 'timestamptz', nullable: true })
  dispatchedAt: Date | null;
}
