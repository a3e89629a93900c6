import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';
import { bigintTransformer } from '../../../database/bigint.transformer';
import type { Account } from '../domain/account';
import type { AllowedTarget } from '../policy/allowed-target';

/**
 * An account (a team) with its cached balances and userConfig. The balances are a cache of
 * the ledger kept in the same transaction as every ledger row; `LedgerService.audit` proves
 * they reconcile.
 */
@Entity('accounts')
export class AccountEntity implements Account {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  /** Lowercase 0x address of the wallet the account was created for. */
  @Column({ type: 'varchar', length: 42, unique: true })
  address: string;

  @Column({ type: 'boolean', default: false })
  disabled: boolean;

  /** Set by an operator while the account recovers what its own pre-migration derived addresses hold (docs/decisions.md, "Derived senders per account"). */
  @Column({ name: 'legacy_derivation', type: 'boolean', default: false })
  legacyDerivation: boolean;

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

  /** Contracts (and their methods) the account's own submissions may call; empty = any. */
  @Column({ name: 'allowed_targets', type: 'jsonb' })
  allowedTargets: AllowedTarget[];

  /** micro-USD; null = no low-balance event. */
  @Column({ name: 'low_balance_threshold_micro', type: 'bigint', nullable: true, transformer: bigintTransformer })
  lowBalanceThresholdMicro: bigint | null;

  /** True from the low-balance event until the balance is back at or above the threshold (once per crossing). */
  @Column({ name: 'low_balance_alerted', type: 'boolean' })
  lowBalanceAlerted: boolean;

  @Column({ name: 'approval_webhook_url', type: 'text', nullable: true })
  approvalWebhookUrl: string | null;

  /** Sealed with SecretBox (context `approval-webhook:<account id>`); never returned. */
  @Column({ name: 'approval_webhook_secret_sealed', type: 'text', nullable: true })
  approvalWebhookSecretSealed: string | null;

  @Column({ name: 'approval_webhook_enabled', type: 'boolean' })
  approvalWebhookEnabled: boolean;

  @Column({ name: 'default_relay_account', type: 'jsonb', nullable: true })
  defaultRelayAccount: Record<string, unknown> | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt: Date;
}
