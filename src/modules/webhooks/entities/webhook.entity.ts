import { Column, CreateDateColumn, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';

export const WEBHOOK_AUTH_TYPES = ['none', 'bearer', 'basic', 'api-key'] as const;
export type WebhookAuthType = (typeof WEBHOOK_AUTH_TYPES)[number];
export const WEBHOOK_KEY_PLACEMENTS = ['header'] as const;
/** The events a registration may filter on (extensions.md); the `event` field of each payload. */
export const WEBHOOK_EVENTS = ['tx.status', 'account.low_balance', 'account.deposit'] as const;
export type WebhookEvent = (typeof WEBHOOK_EVENTS)[number];
export type WebhookKeyPlacement = (typeof WEBHOOK_KEY_PLACEMENTS)[number];

/** One registered webhook of an account; the outbound auth secret is sealed (AES-256-GCM). */
@Entity('webhooks')
@Index(['userId', 'position'])
export class WebhookEntity {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Column({ name: 'user_id', type: 'uuid' })
  userId: string;

  /** Order within the registration, so the response lists them as sent. */
  @Column({ type: 'int' })
  position: number;

  @Column({ type: 'text' })
  url: string;

  @Column({ name: 'auth_type', type: 'varchar', length: 16 })
  authType: WebhookAuthType;

  @Column({ name: 'secret_sealed', type: 'text', nullable: true })
  secretSealed: string | null;

  @Column({ name: 'api_key_var', type: 'varchar', length: 128, nullable: true })
  apiKeyVar: string | null;

  @Column({ name: 'api_key_placement', type: 'varchar', length: 16, default: 'header' })
  apiKeyPlacement: WebhookKeyPlacement;

  @Column({ type: 'boolean', default: true })
  enabled: boolean;

  /** The events it receives; null: all of them. */
  @Column({ type: 'text', array: true, nullable: true })
  events: WebhookEvent[] | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;
}
