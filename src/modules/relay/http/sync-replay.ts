import { Injectable } from '@nestjs/common';
import type { IdempotentRefresh, StoredAnswer } from '../../idempotency';
import { TxQueryService } from './tx-query.service';
import { toTxRecord } from './tx-view';

/**
 * A replayed submit-tx-sync answers the record as it is now, not as it was when the first
 * request returned: a retry after a timeout then sees the outcome.
 */
@Injectable()
export class SyncReplay implements IdempotentRefresh {
  constructor(private readonly txs: TxQueryService) {}

  async refresh(stored: StoredAnswer, body: unknown): Promise<StoredAnswer> {
    // The record's id; a request that failed after its commit stored the submission's `txId` instead.
    const answer = stored.response as { id?: unknown; txId?: unknown } | null;
    const id = answer?.id ?? answer?.txId;
    if (typeof id !== 'string') return stored;
    const options = (body ?? {}) as { includeReceipt?: boolean; includeRevertInfo?: boolean };
    const record = toTxRecord(await this.txs.get(id), { includeReceipt: options.includeReceipt === true, includeRevertInfo: options.includeRevertInfo === true });
    if (record.status !== 'PENDING' || stored.status === 200) return { status: 200, response: record };
    record.timedOut = true;
    return { status: 202, response: record };
  }
}
