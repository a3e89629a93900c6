import type { MinedReceipt, ReceiptJson } from './mined-receipt';
import { minedCostWei } from './settlement-math';
import { MINED, minedOutcome, outcomeOf, settledStage, Stage } from './stage';
import type { FailureReason, RelayTransactionEntity } from '../store/relay-transaction.entity';

export type SettledRow = Pick<RelayTransactionEntity, 'stage' | 'failureReason' | 'executionTxHash' | 'receipt' | 'transactionType' | 'value' | 'fundingCostWei'>;

/** What a settled row becomes when a reorg moved its transaction. */
export interface ReorgCorrection {
  /** The mined stage of what the canonical chain holds (the row's own when only the block or price changed). */
  stage: Stage;
  failureReason: FailureReason | null;
  /** What the recorded receipt cost, in wei, and what the canonical one costs. */
  recordedWei: bigint;
  canonicalWei: bigint;
}

/**
 * A settled row against the receipt the canonical chain now holds for one of its signed
 * transactions (`cancellation`: that one is the relay's 0-value cancel at the row's nonce). Null
 * when the chain agrees with the record. The cost follows settlement's rules (`minedCostWei`; a
 * mined cancellation sends none of the call's value); a re-included transaction may land at
 * another price, and with other state before it may even revert where it executed.
 */
export function reorgCorrection(row: SettledRow, receipt: MinedReceipt, cancellation: boolean): ReorgCorrection | null {
  const recorded = row.receipt;
  // Only a row not yet final at depth is followed (a final stage never changes).
  if (!recorded || !MINED.includes(row.stage)) return null;
  if (recorded.transactionHash.toLowerCase() === receipt.transactionHash.toLowerCase() && recorded.blockHash.toLowerCase() === receipt.blockHash.toLowerCase()) return null;
  const outcome = minedOutcome(receipt.status, cancellation);
  const wasCancelled = outcomeOf(row.stage) === 'failed';
  const failureReason: FailureReason | null = outcome === 'executed' ? null : outcome === 'reverted' ? 'reverted' : wasCancelled ? row.failureReason : 'cancelled';
  return {
    stage: settledStage(outcome, false),
    failureReason,
    recordedWei: costOf(row, recordedAsMined(recorded), wasCancelled),
    canonicalWei: costOf(row, receipt, cancellation),
  };
}

function costOf(row: SettledRow, receipt: Pick<MinedReceipt, 'status' | 'gasUsed' | 'effectiveGasPrice' | 'l1Fee'>, cancellation: boolean): bigint {
  return minedCostWei(cancellation ? { ...row, value: '0' } : row, receipt);
}

function recordedAsMined(r: ReceiptJson): Pick<MinedReceipt, 'status' | 'gasUsed' | 'effectiveGasPrice' | 'l1Fee'> {
  return { status: r.status, gasUsed: BigInt(r.gasUsed), effectiveGasPrice: BigInt(r.effectiveGasPrice), l1Fee: BigInt(r.l1Fee) };
}
