import { microToUsd } from '../../common/money/usd';
import type { FailureReason, TxRecord, TxStatus } from './tx-record';
import { failureReasonOf, stagesOf, TxStages } from './tx-record-fields';

/** The webhook body and WebSocket event of decisions.md. */
export interface TxNotification {
  event: 'tx.status';
  txId: string;
  userId: string;
  status: TxStatus;
  previousStatus: TxStatus | null;
  chainId: number;
  executionTxHash: string | null;
  costUSD: number | null;
  /** The native USD price the settled cost was converted at (extensions.md, "Market data"). */
  nativePriceUsd: number | null;
  retries: number;
  timestamp: string;
  /** Lifecycle fields of the record (extensions.md): null unless FAILED, and the step times. */
  failureReason: FailureReason | null;
  revertReason: string | null;
  stages: TxStages;
  /** The sponsorship policy that sponsored it (extensions.md); null without one. */
  policyId: string | null;
}

/**
 * What travels on the Redis channel: status changes (also in the outbox, for webhooks) and
 * the moment a hash becomes known, which only live waiters (returnOnTxHash) care about.
 */
export interface TxSignal {
  kind: 'status' | 'hash';
  notification: TxNotification;
  /**
   * The feature that relayed the transaction (vault, gasless), or null for a direct submission,
   * when the publisher knew; a feature's listener skips other transactions without a read.
   */
  origin?: string | null;
}

/** What one message on the channel carries: a signal, and the signals published with it, in order. */
export interface TxSignalMessage extends TxSignal {
  more?: TxSignal[];
}

export function notificationFor(tx: TxRecord, previousStatus: TxStatus | null): TxNotification {
  return {
    event: 'tx.status',
    txId: tx.id,
    userId: tx.userId,
    status: tx.status,
    previousStatus,
    chainId: tx.chainId,
    executionTxHash: tx.executionTxHash,
    costUSD: tx.costMicro === null ? null : microToUsd(tx.costMicro),
    nativePriceUsd: tx.nativePriceUsd === null || tx.nativePriceUsd === undefined ? null : Number(tx.nativePriceUsd),
    retries: tx.retries,
    timestamp: new Date().toISOString(),
    failureReason: failureReasonOf(tx),
    revertReason: tx.status === 'FAILED' ? (tx.revertReason ?? null) : null,
    stages: stagesOf(tx),
    policyId: tx.policyId ?? null,
  };
}
