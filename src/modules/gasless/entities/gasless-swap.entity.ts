import { Column, CreateDateColumn, Entity, Index, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';

export const GASLESS_STATUSES = ['pending', 'submitted', 'executed', 'failed'] as const;
export type GaslessStatus = (typeof GASLESS_STATUSES)[number];

/**
 * One gasless swap: the signed quote it consumed and the relayed settlement. The unique quote id
 * is what makes a quote single-use even if two submissions race.
 */
@Entity('gasless_swaps')
export class GaslessSwapEntity {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Index('gasless_swaps_user_id')
  @Column({ name: 'user_id', type: 'uuid' })
  userId: string;

  @Index('gasless_swaps_quote_id', { unique: true })
  @Column({ name: 'quote_id', type: 'varchar', length: 64 })
  quoteId: string;

  @Index('gasless_swaps_relay_tx_id')
  @Column({ name: 'relay_tx_id', type: 'uuid', nullable: true })
  relayTxId: string | null;

  @Column({ type: 'varchar', length: 16 })
  status: GaslessStatus;

  @Column({ name: 'acquisition_mode', type: 'smallint' })
  acquisitionMode: number;

  @Column({ name: 'chain_id', type: 'int' })
  chainId: number;

  @Column({ type: 'varchar', length: 42 })
  sender: string;

  @Column({ type: 'varchar', length: 42 })
  receiver: string;

  @Column({ name: 'from_token', type: 'varchar', length: 42 })
  fromToken: string;

  @Column({ name: 'to_token', type: 'varchar', length: 42 })
  toToken: string;

  /** Token base units as base-10 strings (NUMERIC in the database). */
  @Column({ name: 'amount_in', type: 'numeric', precision: 78, scale: 0 })
  amountIn: string;

  @Column({ name: 'amount_out', type: 'numeric', precision: 78, scale: 0 })
  amountOut: string;

  @Column({ name: 'min_amount_out', type: 'numeric', precision: 78, scale: 0 })
  minAmountOut: string;

  @Column({ name: 'fee_amount', type: 'numeric', precision: 78, scale: 0 })
  feeAmount: string;

  @Column({ name: 'permit_nonce', type: 'numeric', precision: 78, scale: 0 })
  permitNonce: string;

  @Column({ name: 'route_kind', type: 'varchar', length: 32 })
  routeKind: string;

  @Column({ name: 'execution_tx_hash', type: 'varchar', length: 66, nullable: true })
  executionTxHash: string | null;

  /** Why a swap failed before or after relaying (simulation revert, relay refusal, on-chain revert). */
  @Column({ name: 'failure_reason', type: 'text', nullable: true })
  failureReason: string | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt: Date;
}
