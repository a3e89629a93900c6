import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { AppError } from '../../../common/errors/app-error';
import { dailyConsumedMicro } from '../../accounts/domain/daily-window';
import { LedgerService } from '../../accounts/domain/ledger.service';
import { AccountEntity } from '../../accounts/entities/account.entity';
import { TxNotification } from '../../tx-events/tx-notification';
import { TxStatusPublisher } from '../../tx-events/tx-status.publisher';
import { RelayTransactionEntity } from '../entities/relay-transaction.entity';
import { checkSpendLimits } from './spend-limits';

export type PendingFields = Omit<Partial<RelayTransactionEntity>, 'status' | 'isAccountCharged' | 'retries' | 'estimatedCostMicro'>;

/**
 * Accepting a transaction, for every kind of submission: ONE database transaction writes the
 * PENDING row and its status event, then checks the limits on the row-locked account and
 * reserves the cost. The row and event need no lock, so they go first: the account lock, which
 * serialises an account's submissions, is held only for the checks and the reservation.
 */
@Injectable()
export class PendingWriter {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly ledger: LedgerService,
    private readonly publisher: TxStatusPublisher,
  ) {}

  write(
    userId: string,
    fields: PendingFields & { chainId: number },
    costMicro: bigint,
    maxUsd: number | null,
    extra?: (em: EntityManager, tx: RelayTransactionEntity) => Promise<void>,
  ): Promise<{ tx: RelayTransactionEntity; notification: TxNotification }> {
    return this.dataSource.transaction(async (em) => {
      const tx = em.create(RelayTransactionEntity, { ...fields, userId, status: 'PENDING', estimatedCostMicro: costMicro, isAccountCharged: false, retries: 0 });
      await em.save(tx);
      if (extra) await extra(em, tx);
      const notification = await this.publisher.record(em, tx, null);
      const account = await em.findOne(AccountEntity, { where: { id: userId }, lock: { mode: 'for_no_key_update' } });
      if (!account) throw new AppError('USER_001');
      const now = new Date();
      checkSpendLimits(account, fields.chainId, costMicro, maxUsd, now);
      await this.ledger.reserve(account.id, costMicro, `tx:${tx.id}`, em);
      await em.update(AccountEntity, { id: account.id }, { dailyConsumedMicro: dailyConsumedMicro(account, now) + costMicro, dailyUpdatedAt: now });
      return { tx, notification };
    });
  }
}
