import { Injectable } from '@nestjs/common';
import { AppError } from '../../../common/errors/app-error';
import type { RelayedTx } from '../store/relayed-tx';
import { RelayTransactionStore } from '../store/relay-transaction.store';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

@Injectable()
export class TxQueryService {
  constructor(private readonly txs: RelayTransactionStore) {}

  /** The row, or null for an unknown id. */
  find(id: string): Promise<RelayedTx | null> {
    return UUID.test(id) ? this.txs.findById(id) : Promise.resolve(null);
  }

  /** TRANSACTION_003 for unknown ids, including ones that are not even ids. */
  async get(id: string): Promise<RelayedTx> {
    const tx = UUID.test(id) ? await this.txs.findById(id) : null;
    if (!tx) throw new AppError('TRANSACTION_003', `transaction ${id} not found`);
    return tx;
  }
}
