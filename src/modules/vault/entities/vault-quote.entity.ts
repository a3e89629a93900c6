import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn } from 'typeorm';
import type { AllocationLeg, PlannedCall } from '../domain/vault-types';

export type VaultQuoteKind = 'deposit' | 'withdraw';

/** A signed-plan-to-be: what the user signs, kept until it is executed once or expires. */
@Entity('vault_quotes')
export class VaultQuoteEntity {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  /** The API account that asked for it (and pays the gas when it is executed). */
  @Column({ name: 'account_id', type: 'uuid' })
  accountId: string;

  @Column({ type: 'varchar', length: 16 })
  kind: VaultQuoteKind;

  @Column({ name: 'user_address', type: 'varchar', length: 42 })
  userAddress: string;

  @Column({ name: 'chain_id', type: 'int' })
  chainId: number;

  @Column({ type: 'varchar', length: 42 })
  asset: string;

  /** Deposit: assets in; withdrawal: assets the shares were worth when quoted. */
  @Column({ type: 'numeric', precision: 78, scale: 0 })
  amount: string;

  @Column({ type: 'numeric', precision: 78, scale: 0, nullable: true })
  shares: string | null;

  @Column({ name: 'risk_tier', type: 'varchar', length: 16, nullable: true })
  riskTier: string | null;

  @Column({ name: 'min_apy_bps', type: 'int', nullable: true })
  minApyBps: number | null;

  @Column({ name: 'solver_id', type: 'varchar', length: 32, nullable: true })
  solverId: string | null;

  @Column({ type: 'jsonb' })
  allocation: AllocationLeg[];

  @Column({ name: 'gross_apy', type: 'numeric', precision: 24, scale: 12, nullable: true })
  grossApy: string | null;

  @Column({ name: 'net_apy', type: 'numeric', precision: 24, scale: 12, nullable: true })
  netApy: string | null;

  @Column({ name: 'fee_bps', type: 'int', nullable: true })
  feeBps: number | null;

  @Column({ name: 'risk_score', type: 'numeric', precision: 8, scale: 6, nullable: true })
  riskScore: string | null;

  @Column({ type: 'varchar', length: 42 })
  delegate: string;

  @Column({ type: 'jsonb' })
  calls: PlannedCall[];

  @Column({ name: 'execute_nonce', type: 'numeric', precision: 78, scale: 0 })
  executeNonce: string;

  /** Unix seconds; the delegate refuses the batch after it. */
  @Column({ type: 'bigint' })
  deadline: string;

  @Column({ name: 'execute_digest', type: 'varchar', length: 66 })
  executeDigest: string;

  @Column({ name: 'expires_at', type: 'timestamptz' })
  expiresAt: Date;

  @Column({ name: 'consumed_at', type: 'timestamptz', nullable: true })
  consumedAt: Date | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;
}
