import { Column, CreateDateColumn, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';
import { bigintTransformer } from '../../../database/bigint.transformer';

/**
 * credit: money in. reserve: available -> pending for an estimate. raise: more available ->
 * pending for the same reservation when its fees go up (speed-up, re-price; several per
 * reference). settle: the actual cost
 * leaves pending. release: the unused part of a reservation returns to available.
 * debit: money out of available without a reservation (operator adjustment, funding fee).
 * adjust: a settled charge corrected after a reorg moved its transaction (either sign, under the
 * settlement's reference; one per correction, so several may share a reference).
 * deposit: an on-chain deposit credited at its depth, under `dep:<chainId>:<txHash>:<logIndex>`
 * (unique: the database refuses a second credit of the same transfer).
 */
export const LEDGER_KINDS = ['credit', 'reserve', 'raise', 'settle', 'release', 'debit', 'adjust', 'deposit'] as const;
export type LedgerKind = (typeof LEDGER_KINDS)[number];

/**
 * One immutable movement between the two buckets of an account. Each row's deltas say how
 * `available` and `pending` change, so the balances are the column sums.
 */
@Entity('ledger_entries')
@Index(['userId', 'id'])
export class LedgerEntryEntity {
  @PrimaryGeneratedColumn({ type: 'bigint' })
  id: string;

  @Column({ name: 'user_id', type: 'uuid' })
  userId: string;

  @Column({ type: 'varchar', length: 16 })
  kind: LedgerKind;

  @Column({ name: 'available_delta', type: 'bigint', transformer: bigintTransformer })
  availableDelta: bigint;

  @Column({ name: 'pending_delta', type: 'bigint', transformer: bigintTransformer })
  pendingDelta: bigint;

  /** What the movement is for (e.g. `tx:<id>`); unique per kind (except adjust and raise) so a retried job cannot apply it twice. */
  @Column({ type: 'varchar', length: 120, nullable: true })
  reference: string | null;

  @Column({ type: 'text', nullable: true })
  memo: string | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;
}
