import { Column, Entity, PrimaryColumn, UpdateDateColumn } from 'typeorm';
import { bigintTransformer } from '../../../database/bigint.transformer';

/** The next nonce of one signer on one chain; its row lock serialises allocation across workers. */
@Entity('signer_nonces')
export class SignerNonceEntity {
  @PrimaryColumn({ name: 'chain_id', type: 'int' })
  chainId: number;

  @PrimaryColumn({ type: 'varchar', length: 42 })
  address: string;

  @Column({ name: 'next_nonce', type: 'bigint', transformer: bigintTransformer })
  nextNonce: bigint;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt: Date;
}
