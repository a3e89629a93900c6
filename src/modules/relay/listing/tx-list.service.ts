import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { AppError } from '../../../common/errors/app-error';
import { RelayTransactionEntity } from '../entities/relay-transaction.entity';
import { toTxRecord } from '../domain/tx-view';
import { TX_LIST_DEFAULT_LIMIT, TxListDto, TxListQueryDto } from './tx-list.dto';

/**
 * The account's transactions, newest first, by keyset pagination: the cursor is the id of the
 * last row of the previous page, so pages stay stable while new transactions arrive.
 */
@Injectable()
export class TxListService {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  async list(userId: string, query: TxListQueryDto): Promise<TxListDto> {
    const limit = query.limit ?? TX_LIST_DEFAULT_LIMIT;
    const qb = this.dataSource
      .getRepository(RelayTransactionEntity)
      .createQueryBuilder('t')
      .where('t.user_id = :userId', { userId })
      .orderBy('t.created_at', 'DESC')
      .addOrderBy('t.id', 'DESC')
      .limit(limit + 1);
    if (query.status) qb.andWhere('t.status = :status', { status: query.status });
    if (query.chainId !== undefined) qb.andWhere('t.chain_id = :chainId', { chainId: query.chainId });
    if (query.label !== undefined) qb.andWhere('t.label = :label', { label: query.label });
    if (query.cursor) {
      const [anchor] = await this.dataSource.query(`SELECT 1 FROM relay_transactions WHERE id = $1 AND user_id = $2`, [query.cursor, userId]);
      if (!anchor) throw new AppError('VALIDATION_001', 'cursor must be a nextCursor of this list');
      qb.andWhere('(t.created_at, t.id) < (SELECT c.created_at, c.id FROM relay_transactions c WHERE c.id = :cursor)', { cursor: query.cursor });
    }
    const rows = await qb.getMany();
    const page = rows.slice(0, limit);
    return { items: page.map((tx) => toTxRecord(tx)), nextCursor: rows.length > limit ? page[page.length - 1].id : null };
  }
}
