import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { AppError } from '../../../common/errors/app-error';
import { utcDayStart } from '../../accounts/domain/daily-window';
import { microToUsd, usdToMicro } from '../../../common/money/usd';
import { LedgerService } from '../../accounts/domain/ledger.service';
import { AccountEntity } from '../../accounts/entities/account.entity';
import { notificationFor, TxNotification } from '../../tx-events/tx-notification';
import { TxStatusPublisher } from '../../tx-events/tx-status.publisher';
import { RelayTransactionEntity } from '../store/relay-transaction.entity';
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
    if (!extra) return this.writeInOneStatement(userId, fields, costMicro);
    return this.dataSource.transaction(async (em) => {
      const tx = em.create(RelayTransactionEntity, { ...fields, userId, status: 'PENDING', estimatedCostMicro: costMicro, isAccountCharged: false, retries: 0 });
      await em.save(tx);
      if (extra) await extra(em, tx);
      const notification = await this.publisher.record(em, tx, null);
      const now = new Date();
      const reserved = await this.ledger.reserveWithinLimits(em, { userId, amountMicro: costMicro, reference: `tx:${tx.id}`, chainId: fields.chainId, now, dayStart: utcDayStart(now) });
      if (!reserved) {
        // Refused: the account as it is now says which limit (the whole transaction rolls back).
        const account = await em.findOne(AccountEntity, { where: { id: userId } });
        if (!account) throw new AppError('USER_001');
        this.refusal(account, fields.chainId, costMicro, now);
      }
      return { tx, notification };
    });
  }

  /**
   * The usual submission as ONE statement: reservation (the account UPDATE with every limit in
   * its WHERE), reserve entry, row and status event, each written only if the reservation was
   * allowed. One round trip, and the account row is locked only while the statement runs.
   */
  private async writeInOneStatement(
    userId: string,
    fields: PendingFields & { chainId: number },
    costMicro: bigint,
  ): Promise<{ tx: RelayTransactionEntity; notification: TxNotification }> {
    const now = new Date();
    const tx = this.dataSource.manager.create(RelayTransactionEntity, {
      ...fields,
      id: randomUUID(),
      userId,
      status: 'PENDING',
      estimatedCostMicro: costMicro,
      isAccountCharged: false,
      retries: 0,
      label: fields.label ?? '',
      fundingCostWei: '0',
      // What the database leaves null, spelled out: the status event carries these fields.
      executionTxHash: null,
      costMicro: null,
      sender: null,
      nonce: null,
    });
    const notification = notificationFor(tx, null);
    const columns = this.insertColumns(fields);
    // $1..$6 are the ledger's; ours start at $7.
    const first = 7;
    const own = [tx.id, userId, costMicro.toString(), JSON.stringify(notification)];
    // Explicit casts: parameters in an INSERT ... SELECT list get no type from the target column.
    const placeholders = columns.map((c, i) => `$${first + own.length + i}::${c.type}`);
    const values = columns.map((c) => c.value);
    const inserted = await this.ledger.reserveWithinLimits<{ created_at: Date; updated_at: Date }>(
      this.dataSource,
      { userId, amountMicro: costMicro, reference: `tx:${tx.id}`, chainId: fields.chainId, now, dayStart: utcDayStart(now) },
      {
        ctes: `row AS (
                 INSERT INTO relay_transactions (id, user_id, status, estimated_cost_micro, is_account_charged, retries${columns.map((c) => `, ${c.name}`).join('')})
                 SELECT $7::uuid, $8::uuid, 'PENDING', $9::bigint, false, 0${placeholders.map((p) => `, ${p}`).join('')} FROM reservation
                 RETURNING created_at, updated_at
               ),
               event AS (${this.publisher.outboxInsert(`SELECT $7::uuid, $8::uuid, 'PENDING', NULL, $10::jsonb FROM row`)})`,
        params: [...own, ...values],
        select: 'SELECT created_at, updated_at FROM row',
      },
    );
    if (!inserted) {
      const account = await this.dataSource.getRepository(AccountEntity).findOneBy({ id: userId });
      if (!account) throw new AppError('USER_001');
      this.refusal(account, fields.chainId, costMicro, now);
    }
    tx.createdAt = new Date(inserted.created_at);
    tx.updatedAt = new Date(inserted.updated_at);
    return { tx, notification };
  }

  /** The caller's fields as columns of the row, with their SQL types and values as the driver wants them (from the entity's metadata). */
  private insertColumns(fields: PendingFields): Array<{ name: string; type: string; value: unknown }> {
    const metadata = this.dataSource.getMetadata(RelayTransactionEntity);
    return Object.entries(fields)
      .filter(([, value]) => value !== undefined)
      .map(([property, value]) => {
        const column = metadata.findColumnWithPropertyName(property);
        if (!column) throw new Error(`relay_transactions has no column for ${property}`);
        const type = String(column.type);
        const stored = value === null ? null : type === 'jsonb' ? JSON.stringify(value) : typeof value === 'bigint' ? value.toString() : value;
        return { name: column.databaseName, type, value: stored };
      });
  }

  /** Which limit refused a reservation, read from the account as it is now; else the balance. */
  private refusal(account: AccountEntity, chainId: number, costMicro: bigint, now: Date): never {
    checkSpendLimits(account, chainId, costMicro, now);
    throw new AppError('TRANSACTION_002', 'insufficient balance for the estimated cost');
  }
}
