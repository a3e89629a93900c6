import { Column, CreateDateColumn, Entity, Index, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';
import { bigintTransformer } from '../../../database/bigint.transformer';
import type { ReceiptJson } from '../core/mined-receipt';
import type { Stage, TxStatus } from '../core/stage';
import type { DerivationScheme } from '../core/derived-keys';

export type { TxStatus } from '../core/stage';
export const TRANSACTION_TYPES = ['flash', 'flash-blocks', 'authenticated', 'funding-signed'] as const;
export type TransactionType = (typeof TRANSACTION_TYPES)[number];

/** Why a transaction is FAILED (extensions.md, Transaction lifecycle). */
export const FAILURE_REASONS = ['reverted', 'simulation_reverted', 'expired', 'cancelled', 'not_sent', 'exchange_rejected'] as const;
export type FailureReason = (typeof FAILURE_REASONS)[number];
/** A cancellation the service was asked for (by the client, or by `validUntil` passing): the reason a mined cancel gets. */
export type CancelReason = Extract<FailureReason, 'cancelled' | 'expired'>;

/** Features that relay on an account's behalf and are told the outcome (see RelayOutcomes). */
export const RELAY_ORIGINS = ['vault', 'gasless', 'bridge'] as const;
export type RelayOrigin = (typeof RELAY_ORIGINS)[number];

/** A 7702 authorization as the client sent it (stored so a resend signs the same list). */
export interface StoredAuthorization {
  chainId: string;
  address: string;
  nonce: string;
  yParity: number;
  r: string;
  s: string;
}

/** One relayed transaction: the request, the estimate and reservation, and the outcome. */
@Entity('relay_transactions')
@Index(['status', 'createdAt'])
export class RelayTransactionEntity {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Index()
  @Column({ name: 'user_id', type: 'uuid' })
  userId: string;

  @Column({ name: 'chain_id', type: 'int' })
  chainId: number;

  @Column({ name: 'to_address', type: 'varchar', length: 42, nullable: true })
  to: string | null;

  @Column({ name: 'call_data', type: 'text' })
  callData: string;

  /** wei, as a base-10 string (NUMERIC in the database). */
  @Column({ type: 'numeric', precision: 78, scale: 0 })
  value: string;

  @Column({ name: 'gas_limit', type: 'numeric', precision: 78, scale: 0, nullable: true })
  gasLimit: string | null;

  @Column({ name: 'gas_price', type: 'numeric', precision: 78, scale: 0, nullable: true })
  gasPrice: string | null;

  @Column({ name: 'max_fee_per_gas', type: 'numeric', precision: 78, scale: 0, nullable: true })
  maxFeePerGas: string | null;

  @Column({ name: 'max_priority_fee_per_gas', type: 'numeric', precision: 78, scale: 0, nullable: true })
  maxPriorityFeePerGas: string | null;

  @Column({ type: 'text', default: '' })
  label: string;

  /** Derived from `stage` (core/stage.ts statusOf); kept as a column for clients' queries. */
  @Column({ type: 'varchar', length: 16 })
  status: TxStatus;

  /** Where the transaction is in the pipeline; changed only through core/stage.ts `move`. */
  @Column({ type: 'varchar', length: 16 })
  stage: Stage;

  @Column({ name: 'signed_at', type: 'timestamptz', nullable: true })
  signedAt: Date | null;

  /** When a node first acknowledged one of its signed transactions. */
  @Column({ name: 'broadcast_at', type: 'timestamptz', nullable: true })
  broadcastAt: Date | null;

  /** When the relay saw its receipt (null unless mined: executed, reverted, or a mined cancellation). */
  @Column({ name: 'mined_at', type: 'timestamptz', nullable: true })
  minedAt: Date | null;

  @Column({ name: 'settled_at', type: 'timestamptz', nullable: true })
  settledAt: Date | null;

  /**
   * When the settled receipt's block was found canonical at the chain's confirmation depth (null
   * until then); on chains configured with 0 confirmations, taken as seen, the settlement's time.
   */
  @Column({ name: 'finalized_at', type: 'timestamptz', nullable: true })
  finalizedAt: Date | null;

  /** Null unless FAILED. */
  @Column({ name: 'failure_reason', type: 'varchar', length: 32, nullable: true })
  failureReason: FailureReason | null;

  /** The client's deadline: not mined by then, the service cancels it. */
  @Column({ name: 'valid_until', type: 'timestamptz', nullable: true })
  validUntil: Date | null;

  /** Set while a cancellation (0-value self-transfer at the nonce) is requested; replacements then re-send the cancellation. */
  @Column({ name: 'cancel_reason', type: 'varchar', length: 16, nullable: true })
  cancelReason: CancelReason | null;

  /** The sponsorship policy that sponsored it (extensions.md); null when the account had no enabled policy. */
  @Column({ name: 'policy_id', type: 'uuid', nullable: true })
  policyId: string | null;

  /** Whom the sponsorship was for: `endUser`, the derived sender, the permit signer or the vault user (lowercase). */
  @Column({ name: 'end_user', type: 'varchar', length: 42, nullable: true })
  endUser: string | null;

  /** What the policy's counters hold for it until settlement (the reservation as counted there). */
  @Column({ name: 'policy_reserved_micro', type: 'bigint', nullable: true, transformer: bigintTransformer })
  policyReservedMicro: bigint | null;

  /** The end user's window it was counted in; settlement touches that window only. */
  @Column({ name: 'policy_window_start', type: 'timestamptz', nullable: true })
  policyWindowStart: Date | null;

  /** The policy's maxGasPriceGwei in wei: above it the transaction waits unsigned. */
  @Column({ name: 'max_gas_price_wei', type: 'numeric', precision: 78, scale: 0, nullable: true })
  maxGasPriceWei: string | null;

  /** The feature that relayed it on the account's behalf (vault, gasless); null for direct submissions. */
  @Column({ type: 'varchar', length: 16, nullable: true })
  origin: RelayOrigin | null;

  @Column({ name: 'transaction_type', type: 'varchar', length: 16 })
  transactionType: TransactionType;

  @Column({ name: 'submit_region', type: 'varchar', length: 32 })
  submitRegion: string;

  @Column({ name: 'derivation_path', type: 'varchar', length: 128, nullable: true })
  derivationPath: string | null;

  /** Which derivation the row's sender comes from (per account, or the legacy global one); null without a derivation path. */
  @Column({ name: 'derivation_scheme', type: 'varchar', length: 8, nullable: true })
  derivationScheme: DerivationScheme | null;

  @Column({ name: 'authorization_list', type: 'jsonb', nullable: true })
  authorizationList: StoredAuthorization[] | null;

  /** Address that signs on chain (pool relayer or derived key); set when first sent. */
  @Column({ name: 'sender', type: 'varchar', length: 42, nullable: true })
  sender: string | null;

  @Column({ type: 'bigint', nullable: true, transformer: bigintTransformer })
  nonce: bigint | null;

  @Column({ name: 'execution_tx_hash', type: 'varchar', length: 66, nullable: true })
  executionTxHash: string | null;

  @Column({ name: 'estimated_cost_micro', type: 'bigint', transformer: bigintTransformer })
  estimatedCostMicro: bigint;

  /** The submission's maxUSD in micro-USD: a fee raise may not reserve beyond it either. */
  @Column({ name: 'max_cost_micro', type: 'bigint', nullable: true, transformer: bigintTransformer })
  maxCostMicro: bigint | null;

  @Column({ name: 'cost_micro', type: 'bigint', nullable: true, transformer: bigintTransformer })
  costMicro: bigint | null;

  /** The native USD price (decimal string) the settled cost was converted at. */
  @Column({ name: 'native_price_usd', type: 'numeric', precision: 30, scale: 6, nullable: true })
  nativePriceUsd: string | null;

  @Column({ name: 'is_account_charged', type: 'boolean', default: false })
  isAccountCharged: boolean;

  @Column({ type: 'int', default: 0 })
  retries: number;

  @Column({ name: 'latency_ms', type: 'int', nullable: true })
  latencyMs: number | null;

  @Column({ type: 'text', nullable: true })
  error: string | null;

  @Column({ name: 'revert_reason', type: 'text', nullable: true })
  revertReason: string | null;

  /** The receipt of the mined transaction, kept for includeReceipt. */
  @Column({ type: 'jsonb', nullable: true })
  receipt: ReceiptJson | null;

  /** Gas of the transfers that topped up a derived sender for this transaction (charged with it). */
  @Column({ name: 'funding_cost_wei', type: 'numeric', precision: 78, scale: 0, default: '0' })
  fundingCostWei: string;

  /** The transfer that topped up the sender of a funding-signed transaction. */
  @Column({ name: 'funding_tx_hash', type: 'varchar', length: 66, nullable: true })
  fundingTxHash: string | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt: Date;
}
