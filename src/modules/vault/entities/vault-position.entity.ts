import { Column, Entity, PrimaryColumn, UpdateDateColumn } from 'typeorm';

/** What a user's EOA holds in a vault through this service, and what it paid for it (asset units). */
@Entity('vault_positions')
export class VaultPositionEntity {
  @PrimaryColumn({ name: 'user_address', type: 'varchar', length: 42 })
  userAddress: string;

  @PrimaryColumn({ name: 'chain_id', type: 'int' })
  chainId: number;

  @PrimaryColumn({ type: 'varchar', length: 42 })
  vault: string;

  @Column({ name: 'venue_id', type: 'varchar', length: 64 })
  venueId: string;

  @Column({ type: 'varchar', length: 42 })
  asset: string;

  @Column({ type: 'numeric', precision: 78, scale: 0 })
  shares: string;

  @Column({ name: 'cost_basis', type: 'numeric', precision: 78, scale: 0 })
  costBasis: string;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt: Date;
}
