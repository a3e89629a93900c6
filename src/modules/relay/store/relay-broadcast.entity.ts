import { Column, CreateDateColumn, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';
import { bigintTransformer } from '../../../database/bigint.transformer';

/**
 * Every signed transaction ever broadcast for a relayed transaction (the first send and each
 * fee-bumped replacement). Whichever hash is mined counts.
 */
@Entity('relay_broadcasts')
export class RelayBroadcastEntity {
  @PrimaryGeneratedColumn({ type: 'bigint' })
  id: string;

  @Index()
  @Column({ name: 'tx_id', type: 'uuid' })
  txId: string;

  @Index({ unique: true })
  @Column({ type: 'varchar', length: 66 })
  hash: string;

  @Column({ name: 'chain_id', type: 'int' })
  chainId: number;

  @Column({ type: 'varchar', length: 42 })
  sender: string;

  @Column({ type: 'bigint', transformer: bigintTransformer })
  nonce: bigint;

  /** `call` signs the row's request; `cancel` is a 0-value self-transfer at the same nonce that voids it. */
  @Column({ type: 'varchar', length: 8, default: 'call' })
  kind: 'call' | 'cancel';

  /** The signed raw transaction, so a broadcast can be repeated byte for byte after a crash. */
  @Column({ type: 'text' })
  raw: string;

  @Column({ name: 'max_fee_per_gas', type: 'numeric', precision: 78, scale: 0 })
  maxFeePerGas: string;

  @Column({ name: 'max_priority_fee_per_gas', type: 'numeric', precision: 78, scale: 0, nullable: true })
  maxPriorityFeePerGas: string | null;

  /**
   * Set once a node accepted it (right after the broadcast, or by settlement when the receipt
   * was already there); null means signed but the broadcast is not confirmed yet.
   */
  @Column({ name: 'broadcast_at', type: 'timestamptz', nullable: true })
  broadcastAt: Date | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;
}
