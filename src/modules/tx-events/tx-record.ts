/**
 * What tx-events reads of a relayed transaction to announce it: plain fields, owned here so
 * that tx-events depends on no module that publishes through it (the relay does). The relay's
 * row satisfies this shape; relay/store/tx-record-contract.spec.ts keeps the two unions equal.
 */

/** The public status of decisions.md; the relay's stages map onto it. */
export type TxStatus = 'PENDING' | 'EXECUTED' | 'FAILED';

/** Why a transaction is FAILED (extensions.md, Transaction lifecycle). */
export type FailureReason = 'reverted' | 'simulation_reverted' | 'expired' | 'cancelled' | 'not_sent' | 'exchange_rejected';

export interface TxRecord {
  id: string;
  userId: string;
  status: TxStatus;
  /** The relay's pipeline stage; only `reverted` matters here (a FAILED row before failure_reason existed). */
  stage: string;
  chainId: number;
  executionTxHash: string | null;
  costMicro: bigint | null;
  nativePriceUsd?: string | null;
  retries: number;
  revertReason?: string | null;
  failureReason: FailureReason | null;
  policyId?: string | null;
  createdAt?: Date | null;
  signedAt: Date | null;
  broadcastAt: Date | null;
  minedAt: Date | null;
  settledAt: Date | null;
}
