import { Injectable } from '@nestjs/common';
import { TxSignalSubscriber } from '../../tx-events';
import type { RelayOrigin } from '../store/relay-transaction.entity';

/** The final outcome of a transaction a feature relayed. */
export interface RelayOutcome {
  txId: string;
  /** Null when the announcement did not carry the origin (a job from before origins were recorded). */
  origin: RelayOrigin | null;
  status: 'EXECUTED' | 'FAILED';
  executionTxHash: string | null;
}

/**
 * How a feature that relays on an account's behalf (vault, gasless) learns the outcome of its
 * transactions: typed events filtered by the origin the feature gave at submission. Delivery
 * is live and best effort (the Redis signal after commit); a feature that must not miss one
 * also reads the relay row on its own schedule (vault's tracking job, gasless on read).
 */
@Injectable()
export class RelayOutcomes {
  constructor(private readonly signals: TxSignalSubscriber) {}

  /** Resolves once listening; the returned function stops it. */
  on(origin: RelayOrigin, handler: (outcome: RelayOutcome) => void): Promise<() => void> {
    return this.signals.listen(null, (signal) => {
      const { txId, status, executionTxHash } = signal.notification;
      if (signal.kind !== 'status' || status === 'PENDING') return;
      if (signal.origin !== undefined && signal.origin !== origin) return;
      handler({ txId, origin: (signal.origin as RelayOrigin | null | undefined) ?? null, status, executionTxHash });
    });
  }
}
