import type { RelayedTx } from '../../relay';
import type { GaslessStatus } from '../entities/gasless-swap.entity';

export interface GaslessProgress {
  status: GaslessStatus;
  executionTxHash: string | null;
  failureReason: string | null;
}

/**
 * A gasless swap follows its relayed settlement: accepted by the relay = submitted, mined
 * successfully = executed, failed or reverted = failed. The hash is only reported once the
 * settlement landed, as interface.md says; before that it may still be replaced.
 */
export function progressOf(tx: Pick<RelayedTx, 'status' | 'executionTxHash' | 'revertReason' | 'error'>): GaslessProgress {
  switch (tx.status) {
    case 'EXECUTED':
      return { status: 'executed', executionTxHash: tx.executionTxHash, failureReason: null };
    case 'FAILED':
      return { status: 'failed', executionTxHash: tx.executionTxHash, failureReason: tx.revertReason ?? tx.error ?? 'settlement failed' };
    default:
      return { status: 'submitted', executionTxHash: null, failureReason: null };
  }
}
