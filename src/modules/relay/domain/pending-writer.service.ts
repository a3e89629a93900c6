import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { AppError } from '../../../common/errors/app-error';
import { utcDayStart } from '../../accounts/domain/daily-window';
import { microToUsd, usdToMicro } from '../../../common/money/usd';
import { LedgerService } from '../../accounts/domain/ledger.service';
import { AccountEntity } from '../../accounts/entities/account.entity';
import { TxNotification } from '../../tx-events/tx-notification';
import { TxStatusPublisher } from '../../tx-events/tx-status.publisher';
import { RelayTransactionEntity } from '../entities/relay-transaction.entity';
import { checkSpendLimits } from './spend-limits';

export type PendingFields = Omit<Partial<RelayTransactionEntity>, 'status' | 'isAccountCharged' | 'retries' | 'estimatedCostMicro'>;

/**
 * Accepting a transaction, for every kind of submission: ONE database transaction writes the
 * PENDING row, its status event and the reservation, and checks the limits. The limits and the
 * balance move are one conditional UPDATE of the account, the last statement before commit, so
 * the account row lock that serialises an account's submissions lasts one round trip.
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
    // Request-only limit: no need to hold anything to check it.
    if (maxUsd !== null && costMicro > usdToMicro(maxUsd)) {
      throw new AppError('TRANSACTION_001', `estimated cost ${microToUsd(costMicro)} USD exceeds maxUSD ${maxUsd}`);
    }
    return this.dataSource.transaction(async (em) => {
      const tx = em.create(RelayTransactionEntity, { ...fields, userId, status: 'PENDING', estimatedCostMicro: costMicro, isAccountCharged: false, retries: 0 });
      await em.save(tx);
      if (extra) await extra(em, tx);
      const notification = await this.publisher.record(em, tx, null);
      const now = new Date();
      const reserved = await this.ledger.reserveWithinLimits(em, userId, costMicro, `tx:${tx.id}`, { chainId: fields.chainId, now, dayStart: utcDayStart(now) });
      if (!reserved) {
        // Refused: the account as it is now says which limit (the whole transaction rolls back).
        const account = await em.findOne(AccountEntity, { where: { id: userId } });
        if (!account) throw new AppError('USER_001');
        checkSpendLimits(account, fields.chainId, costMicro, null, now);
        throw new AppError('TRANSACTION_002', 'insufficient balance for the estimated cost');
      }
      return { tx, notification };
    });
  }
}
