import { Column, CreateDateColumn, Entity, PrimaryColumn } from 'typeorm';

/** The account's Standard Webhooks signing secret (`whsec_...`), sealed. */
@Entity('webhook_signing_keys')
export class WebhookSigningKeyEntity {
  @PrimaryColumn({ name: 'user_id', type: 'uuid' })
  userId: string;

  @Column({ name: 'secret_sealed', type: 'text' })
  secretSealed: string;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  @Column({ name: 'rotated_at', type: 'timestamptz', nullable: true })
  rotatedAt: Date | null;
}
