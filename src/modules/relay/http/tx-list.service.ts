import { Injectable } from '@nestjs/common';
import { AppError } from '../../../common/errors/app-error';
import { RelayTransactionStore } from '../store/relay-transaction.store';
import { TX_LIST_DEFAULT_LIMIT, TxListDto, TxListQueryDto } from './dto/tx-list.dto';
import { toTxRecord } from './tx-view';

/**
 * The account's transactions, newest first, by keyset pagination: the cursor is the id of the
 * last row of the previous page, so pages stay stable while new transactions arrive.
 */
@Injectable()
export class TxListService {
  constructor(private readonly txs: RelayTransactionStore) {}

  async list(userId: string, query: TxListQueryDto): Promise<TxListDto> {
    const limit = query.limit ?? TX_LIST_DEFAULT_LIMIT;
    if (query.cursor && !(await this.txs.belongsTo(query.cursor, userId))) throw new AppError('VALIDATION_001', 'cursor must be a nextCursor of this list');
    const rows = await this.txs.listForUser(userId, { status: query.status, chainId: query.chainId, label: query.label, after: query.cursor }, limit + 1);
    const page = rows.slice(0, limit);
    return { items: page.map((tx) => toTxRecord(tx)), nextCursor: rows.length > limit ? page[page.length - 1].id : null };
  }
}
