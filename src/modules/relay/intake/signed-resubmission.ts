import { QueryFailedError } from 'typeorm';
import { AppError } from '../../../common/errors/app-error';
import { microToUsd } from '../../../common/money/usd';
import { RelayBroadcastStore } from '../store/relay-broadcast.store';
import { RelayTransactionStore } from '../store/relay-transaction.store';

export interface SignedSubmission {
  txId: string;
  estimatedCostUSD: number;
  fundingTxHash: string | null;
}

/**
 * A signed transaction is one transaction whoever sends it, and its hash is unique among the
 * broadcasts. Sending the same bytes again (a client retry) answers what the first submission
 * answered, without a second top-up or charge; another account cannot claim it.
 */
export async function previousSubmission(broadcasts: RelayBroadcastStore, txs: RelayTransactionStore, hash: string, userId: string): Promise<SignedSubmission | null> {
  const txId = await broadcasts.txIdOf(hash);
  if (!txId) return null;
  const tx = await txs.findById(txId);
  if (!tx || tx.userId !== userId) throw new AppError('VALIDATION_001', 'this signed transaction was already submitted by another account');
  return { txId: tx.id, estimatedCostUSD: microToUsd(tx.estimatedCostMicro), fundingTxHash: tx.fundingTxHash };
}

/** The insert lost a race with a concurrent submission of the same bytes. */
export function isDuplicateBroadcast(err: unknown): boolean {
  const driverError = err instanceof QueryFailedError ? (err.driverError as { code?: string; constraint?: string }) : undefined;
  return driverError?.code === '23505' && driverError.constraint === 'relay_broadcasts_hash_key';
}
