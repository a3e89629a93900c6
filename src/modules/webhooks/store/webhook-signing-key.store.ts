import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { SqlStore } from '../../../database/sql-store';
import { WebhookSigningKeyEntity } from '../entities/webhook-signing-key.entity';

/** The `webhook_signing_keys` table: one sealed signing secret per account. */
@Injectable()
export class WebhookSigningKeyStore extends SqlStore {
  constructor(@InjectDataSource() dataSource: DataSource) {
    super(dataSource);
  }

  find(userId: string, em: EntityManager): Promise<WebhookSigningKeyEntity | null> {
    return em.getRepository(WebhookSigningKeyEntity).findOneBy({ userId });
  }

  async insert(userId: string, secretSealed: string, em: EntityManager): Promise<void> {
    await em.getRepository(WebhookSigningKeyEntity).insert({ userId, secretSealed });
  }

  async rotate(userId: string, secretSealed: string, em: EntityManager): Promise<void> {
    await em.getRepository(WebhookSigningKeyEntity).update({ userId }, { secretSealed, rotatedAt: new Date() });
  }
}
