import type { AllowedTarget } from '../policy/allowed-target';

/**
 * An account (a team) as other modules see it: its balances (a cache of the ledger), limits
 * and userConfig. Plain data; the ORM entity (store/account.entity.ts) implements it.
 */
export interface Account {
  id: string;

  /** Lowercase 0x address of the wallet the account was created for. */
  address: string;

  disabled: boolean;

  /** Set by an operator while the account recovers what its own pre-migration derived addresses hold (docs/decisions.md, "Derived senders per account"). */
  legacyDerivation: boolean;

  availableMicro: bigint;

  pendingMicro: bigint;

  perTxLimitMicro: bigint;

  dailyLimitMicro: bigint;

  dailyConsumedMicro: bigint;

  dailyUpdatedAt: Date;

  disabledChainIds: number[];

  maxRetries: number;

  circuitBreakerEnabled: boolean;

  failureStreakLimit: number;

  failureStreak: number;

  ipWhitelist: string[];

  domainWhitelist: string[];

  /** Contracts (and their methods) the account's own submissions may call; empty = any. */
  allowedTargets: AllowedTarget[];

  /** micro-USD; null = no low-balance event. */
  lowBalanceThresholdMicro: bigint | null;

  /** True from the low-balance event until the balance is back at or above the threshold (once per crossing). */
  lowBalanceAlerted: boolean;

  approvalWebhookUrl: string | null;

  /** Sealed with SecretBox (context `approval-webhook:<account id>`); never returned. */
  approvalWebhookSecretSealed: string | null;

  approvalWebhookEnabled: boolean;

  defaultRelayAccount: Record<string, unknown> | null;

  createdAt: Date;

  updatedAt: Date;
}
