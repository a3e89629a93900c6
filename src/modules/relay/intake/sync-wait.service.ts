import { Injectable } from '@nestjs/common';
import { TxSignalSubscriber } from '../../tx-events';
import { RelayTransactionEntity } from '../store/relay-transaction.entity';
import { TxQueryService } from '../http/tx-query.service';

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
    const deadline = Date.now() + timeoutMs;
    // The subscription waits for Redis; with Redis down the request still ends at its timeout.
    const listening = this.signals.listen(txId, (signal) => {
      if (done(signal.notification)) wake();
    });
    const stop = await withTimeout(listening, timeoutMs);
    if (!stop) {
      // Unregister whenever the subscription does come up, so nothing leaks.
      void listening.then((unlisten) => unlisten());
      return { tx: await this.txs.get(txId), timedOut: true };
    }
    let timer: NodeJS.Timeout | undefined;
    try {
      const current = await this.txs.get(txId);
      if (done(current)) return { tx: current, timedOut: false };
      const timedOut = await Promise.race([
        signalled.then(() => false),
        new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(true), Math.max(deadline - Date.now(), 0)))),
      ]);
      return { tx: await this.txs.get(txId), timedOut };
    } finally {
      clearTimeout(timer);
      stop();
    }
  }
}

/** The promise's value, or null when it has not settled within `ms`. */
async function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T | null> {
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<null>((resolve) => (timer = setTimeout(() => resolve(null), ms)));
  try {
    return await Promise.race([promise, expired]);
  } finally {
    clearTimeout(timer);
  }
}
