import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, DeepPartial, EntityManager } from 'typeorm';
import { sql } from '../../../database/sql';
import { SqlStore } from '../../../database/sql-store';
import { WebhookEntity } from '../entities/webhook.entity';

/** The `webhooks` table: each account's registered set, in position order. */
@Injectable()
export class WebhookStore extends SqlStore {
  constructor(@InjectDataSource() dataSource: DataSource) {
    super(dataSource);
  }

  /** Serialises registrations of one account without touching the account row the relay locks. */
  async lockSetOf(userId: string, em: EntityManager): Promise<void> {
    await this.rows(sql`SELECT pg_advisory_xact_lock(hashtext(${`webhooks:${userId}`}))`, em);
  }

  listOf(userId: string, em?: EntityManager): Promise<WebhookEntity[]> {
    em ??= this.manager();
    return em.getRepository(WebhookEntity).find({ where: { userId }, order: { position: 'ASC' } });
  }

  /** An unsaved row (no statement runs). */
  build(fields: DeepPartial<WebhookEntity>): WebhookEntity {
    return this.manager().create(WebhookEntity, fields);
  }

  async remove(ids: string[], em: EntityManager): Promise<void> {
    if (ids.length) await em.getRepository(WebhookEntity).delete(ids);
  }

  async saveAll(rows: WebhookEntity[], em: EntityManager): Promise<void> {
    if (rows.length) await em.getRepository(WebhookEntity).save(rows);
  }
}
