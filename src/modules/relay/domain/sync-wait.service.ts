import { Injectable } from '@nestjs/common';
import { TxSignalSubscriber } from '../../tx-events/tx-signal.subscriber';
import { RelayTransactionEntity } from '../entities/relay-transaction.entity';
import { TxQueryService } from './tx-query.service';

export interface SyncResult {
  tx: RelayTransactionEntity;
  timedOut: boolean;
}

const isTerminal = (status: string) => status === 'EXECUTED' || status === 'FAILED';

/**
 * Holds a request until the transaction is terminal (or has a hash, with returnOnTxHash) by
 * listening to the status signals over Redis, not by polling the database. The listener is
 * registered before the first read, so a change between the two is not missed.
 */
@Injectable()
export class SyncWaitService {
  constructor(
    private readonly signals: TxSignalSubscriber,
    private readonly txs: TxQueryService,
  ) {}

  async wait(txId: string, timeoutMs: number, returnOnTxHash: boolean): Promise<SyncResult> {
    const done = (tx: { status: string; executionTxHash: string | null }) => isTerminal(tx.status) || (returnOnTxHash && tx.executionTxHash !== null);
    let wake: () => void = () => undefined;
    const signalled = new Promise<void>((resolve) => (wake = resolve));
    const stop = await this.signals.listen(txId, (signal) => {
      if (done(signal.notification)) wake();
    });
    let timer: NodeJS.Timeout | undefined;
    try {
      const current = await this.txs.get(txId);
      if (done(current)) return { tx: current, timedOut: false };
      const timedOut = await Promise.race([
        signalled.then(() => false),
        new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(true), timeoutMs))),
      ]);
      return { tx: await this.txs.get(txId), timedOut };
    } finally {
      clearTimeout(timer);
      stop();
    }
  }
}
