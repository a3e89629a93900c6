import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, DeepPartial } from 'typeorm';
import { SqlStore } from '../../../database/sql-store';
import { GaslessSwapEntity } from '../entities/gasless-swap.entity';
import type { GaslessProgress } from '../domain/gasless-status';
import { managerOf, UnitOfWork } from '../../../database/unit-of-work';

/** The `gasless_swaps` table: one row per consumed gasless quote (its unique quote id makes the quote single-use). */
@Injectable()
export class GaslessSwapStore extends SqlStore {
  constructor(@InjectDataSource() dataSource: DataSource) {
    super(dataSource);
  }

  /** Written in the relay row's transaction (`work`); a second row for the same quote fails with 23505. */
  insert(row: DeepPartial<GaslessSwapEntity>, work: UnitOfWork): Promise<GaslessSwapEntity> {
    const em = managerOf(work);
    return em.save(em.create(GaslessSwapEntity, row));
  }

  findOfUser(id: string, userId: string): Promise<GaslessSwapEntity | null> {
    return this.manager().findOneBy(GaslessSwapEntity, { id, userId });
  }

  findByRelayTx(relayTxId: string): Promise<GaslessSwapEntity | null> {
    return this.manager().findOneBy(GaslessSwapEntity, { relayTxId });
  }

  async setProgress(id: string, progress: GaslessProgress): Promise<void> {
    await this.manager().update(GaslessSwapEntity, { id }, progress);
  }
}
