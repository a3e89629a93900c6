import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, DeepPartial, EntityManager } from 'typeorm';
import { sql } from '../../../database/sql';
import { SqlStore } from '../../../database/sql-store';
import { VaultQuoteEntity } from '../entities/vault-quote.entity';
import { managerOf, UnitOfWork } from '../../../database/unit-of-work';

/** The `vault_quotes` table: quotes with their stored plan, each usable once before it expires. */
@Injectable()
export class VaultQuoteStore extends SqlStore {
  constructor(@InjectDataSource() dataSource: DataSource) {
    super(dataSource);
  }

  /** The saved quote, with its generated id and timestamps (in the transaction that also stores its bids). */
  insert(fields: DeepPartial<VaultQuoteEntity>, em: EntityManager): Promise<VaultQuoteEntity> {
    return em.save(em.create(VaultQuoteEntity, fields));
  }

  findOfAccount(id: string, accountId: string): Promise<VaultQuoteEntity | null> {
    return this.manager().findOneBy(VaultQuoteEntity, { id, accountId });
  }

  /** Takes the quote if it is unused and unexpired; false otherwise. */
  async consume(id: string, work: UnitOfWork): Promise<boolean> {
    const taken = await this.rows(sql`UPDATE vault_quotes SET consumed_at = now() WHERE id = ${id} AND consumed_at IS NULL AND expires_at > now() RETURNING id`, managerOf(work));
    return taken.length > 0;
  }
}
