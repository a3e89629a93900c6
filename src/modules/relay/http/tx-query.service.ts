import { Injectable } from '@nestjs/common';
import { AppError } from '../../../common/errors/app-error';
import type { RelayedTx } from '../store/relayed-tx';
import { RelayTransactionStore } from '../store/relay-transaction.store';
import { isUuid } from '../../../common/ids/uuid';

@Injectable()
export class TxQueryService {
  constructor(private readonly txs: RelayTransactionStore) {}

  /** The row, or null for an unknown id. */
  find(id: string): Promise<RelayedTx | null> {
    return isUuid(id) ? this.txs.findById(id) : Promise.resolve(null);
  }

  /** TRANSACTION_003 for unknown ids, including ones that are not even ids. */
  async get(id: string): Promise<RelayedTx> {
    const tx = isUuid(id) ? await this.txs.findById(id) : null;
    if (!tx) throw new AppError('TRANSACTION_003', `transaction ${id} not found`);
    return tx;
  }
}
