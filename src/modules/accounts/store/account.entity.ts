import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';
import { bigintTransformer } from '../../../database/bigint.transformer';

/**
 * An account (a team) with its cached balances and userConfig. The balances are a cache of
 * the ledger kept in the same transaction as every ledger row; `LedgerService.audit` proves
 * they reconcile.
 */
@Entity('accounts')
export class AccountEntity {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  /** Lowercase 0x address of the wallet the account was created for. */
  @Column({ type: 'varchar', length: 42, unique: true })
  address: string;

  @Column({ type: 'boolean', default: false })
  disabled: boolean;

  @Column({ name: 'available_micro', type: 'bigint', transformer: bigintTransformer })
  availableMicro: bigint;

  @Column({ name: 'pending_micro', type: 'bigint', transformer: bigintTransformer })
  pendingMicro: bigint;

  @Column({ name: 'per_tx_limit_micro', type: 'bigint', transformer: bigintTransformer })
  perTxLimitMicro: bigint;

  @Column({ name: 'daily_limit_micro', type: 'bigint', transformer: bigintTransformer })
  dailyLimitMicro: bigint;

  @Column({ name: 'daily_consumed_micro', type: 'bigint', transformer: bigintTransformer })
  dailyConsumedMicro: bigint;

  @Column({ name: 'daily_updated_at', type: 'timestamptz' })
  dailyUpdatedAt: Date;

  @Column({ name: 'disabled_chain_ids', type: 'int', array: true })
  disabledChainIds: number[];

  @Column({ name: 'max_retries', type: 'int' })
  maxRetries: number;

  @Column({ name: 'circuit_breaker_enabled', type: 'boolean' })
  circuitBreakerEnabled: boolean;

  @Column({ name: 'failure_streak_limit', type: 'int' })
  failureStreakLimit: number;

  @Column({ name: 'failure_streak', type: 'int' })
  failureStreak: number;

  @Column({ name: 'ip_whitelist', type: 'text', array: true })
  ipWhitelist: string[];

  @Column({ name: 'domain_whitelist', type: 'text', array: true })
  domainWhitelist: string[];

  @Column({ name: 'default_relay_account', type: 'jsonb', nullable: true })
  defaultRelayAccount: Record<string, unknown> | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt: Date;
}
