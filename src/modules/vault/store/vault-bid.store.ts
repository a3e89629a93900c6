import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { SqlStore } from '../../../database/sql-store';
import { VaultBidEntity } from '../entities/vault-bid.entity';

export type VaultBid = Omit<VaultBidEntity, 'id' | 'quoteId' | 'createdAt'>;

/** The `vault_bids` table: every solver's bid of a deposit quote's auction, winner or not. */
@Injectable()
export class VaultBidStore extends SqlStore {
  constructor(@InjectDataSource() dataSource: DataSource) {
    super(dataSource);
  }

  async insertOfQuote(quoteId: string, bids: VaultBid[], em: EntityManager): Promise<void> {
    if (bids.length > 0) await em.getRepository(VaultBidEntity).insert(bids.map((bid) => ({ ...bid, quoteId })));
  }
}
