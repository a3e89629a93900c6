import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';
import type { AllocationLeg } from '../domain/vault-types';
import type { VaultQuoteKind } from './vault-quote.entity';

export const ORDER_STATUSES = ['relaying', 'confirmed', 'failed'] as const;
export type OrderStatus = (typeof ORDER_STATUSES)[number];

/** An executed settlement plan, followed until its relayed transaction is final. */
@Entity('vault_orders')
export class VaultOrderEntity {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Column({ name: 'account_id', type: 'uuid' })
  accountId: string;

  @Column({ name: 'quote_id', type: 'uuid' })
  quoteId: string;

  @Column({ type: 'varchar', length: 16 })
  kind: VaultQuoteKind;

  @Column({ name: 'user_address', type: 'varchar', length: 42 })
  userAddress: string;

  @Column({ name: 'chain_id', type: 'int' })
  chainId: number;

  @Column({ type: 'varchar', length: 42 })
  asset: string;

  @Column({ type: 'numeric', precision: 78, scale: 0 })
  amount: string;

  /** The venue with the largest share (the whole allocation is in `allocation`). */
  @Column({ name: 'venue_id', type: 'varchar', length: 64 })
  venueId: string;

  @Column({ type: 'jsonb' })
  allocation: AllocationLeg[];

  @Column({ name: 'relay_tx_id', type: 'uuid' })
  relayTxId: string;

  @Column({ type: 'varchar', length: 16 })
  status: OrderStatus;

  @Column({ name: 'execution_tx_hash', type: 'varchar', length: 66, nullable: true })
  executionTxHash: string | null;

  @Column({ name: 'failure_reason', type: 'text', nullable: true })
  failureReason: string | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt: Date;
}
