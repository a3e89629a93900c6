import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn } from 'typeorm';
import type { AllocationLeg } from '../domain/vault-types';

/** Every solver's bid in the auction behind a deposit quote, kept for audit. */
@Entity('vault_bids')
export class VaultBidEntity {
  @PrimaryGeneratedColumn({ type: 'bigint' })
  id: string;

  @Column({ name: 'quote_id', type: 'uuid' })
  quoteId: string;

  @Column({ name: 'solver_id', type: 'varchar', length: 32 })
  solverId: string;

  @Column({ type: 'jsonb' })
  allocation: AllocationLeg[];

  @Column({ name: 'gross_apy', type: 'numeric', precision: 24, scale: 12 })
  grossApy: string;

  @Column({ name: 'net_apy', type: 'numeric', precision: 24, scale: 12 })
  netApy: string;

  @Column({ name: 'fee_bps', type: 'int' })
  feeBps: number;

  @Column({ name: 'risk_score', type: 'numeric', precision: 8, scale: 6 })
  riskScore: string;

  /** Why the auction refused the bid (tier, minApyBps, capacity); null for valid bids. */
  @Column({ name: 'rejected_reason', type: 'text', nullable: true })
  rejectedReason: string | null;

  @Column({ type: 'boolean', default: false })
  won: boolean;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;
}
