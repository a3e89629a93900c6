import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn } from 'typeorm';

/** One reading of a vault's share price at a block; APYs are measured between such readings. */
@Entity('vault_share_samples')
export class VaultShareSampleEntity {
  @PrimaryGeneratedColumn({ type: 'bigint' })
  id: string;

  @Column({ name: 'chain_id', type: 'int' })
  chainId: number;

  /** Lowercase address. */
  @Column({ type: 'varchar', length: 42 })
  vault: string;

  @Column({ name: 'block_number', type: 'bigint' })
  blockNumber: string;

  @Column({ name: 'block_time', type: 'timestamptz' })
  blockTime: Date;

  /** convertToAssets(PRICE_SCALE_SHARES) at that block, in asset units. */
  @Column({ name: 'assets_per_share', type: 'numeric', precision: 78, scale: 0 })
  assetsPerShare: string;

  @Column({ name: 'total_assets', type: 'numeric', precision: 78, scale: 0 })
  totalAssets: string;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;
}
