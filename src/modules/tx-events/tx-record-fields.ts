import type { FailureReason, TxRecord } from './tx-record';

/**
 * The lifecycle fields every view of a transaction carries (the record of GET /api/tx and
 * lists, webhook bodies, Socket.IO events), computed in one place so they agree.
 */

/** Null unless FAILED; rows finished before the column existed were backfilled by the migration. */
export function failureReasonOf(tx: Pick<TxRecord, 'status' | 'stage' | 'failureReason'>): FailureReason | null {
  if (tx.status !== 'FAILED') return null;
  return tx.failureReason ?? (tx.stage === 'reverted' ? 'reverted' : 'not_sent');
}

export interface TxStages {
  acceptedAt: string;
  signedAt: string | null;
  broadcastAt: string | null;
  minedAt: string | null;
  settledAt: string | null;
}

export function stagesOf(tx: Pick<TxRecord, 'createdAt' | 'signedAt' | 'broadcastAt' | 'minedAt' | 'settledAt'>): TxStages {
  const iso = (d: Date | null | undefined) => (d ? new Date(d).toISOString() : null);
  return {
    // A row being written has no created_at yet; its first event is stamped now.
    acceptedAt: iso(tx.createdAt) ?? new Date().toISOString(),
    signedAt: iso(tx.signedAt),
    broadcastAt: iso(tx.broadcastAt),
    minedAt: iso(tx.minedAt),
    settledAt: iso(tx.settledAt),
  };
}
