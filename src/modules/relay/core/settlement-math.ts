import { AccountCounters, utcDayStart } from '../../accounts';
import type { MinedReceipt } from './mined-receipt';
import type { RelayTransactionEntity } from '../store/relay-transaction.entity';

/**
 * What a mined transaction costs the account, in wei of the chain's native currency: gas used
 * at the effective price, the L1 data fee, the value sent (only when it executed: a reverted
 * call sends none) and the top-ups made for a derived sender. A funding-signed sender paid its
 * own gas from the top-up, so its account pays the top-up alone.
 */
export function minedCostWei(
  tx: Pick<RelayTransactionEntity, 'transactionType' | 'value' | 'fundingCostWei'>,
  receipt: Pick<MinedReceipt, 'status' | 'gasUsed' | 'effectiveGasPrice' | 'l1Fee'>,
): bigint {
  const funding = BigInt(tx.fundingCostWei);
  if (tx.transactionType === 'funding-signed') return funding;
  const value = receipt.status === 1 ? BigInt(tx.value) : 0n;
  return receipt.gasUsed * receipt.effectiveGasPrice + receipt.l1Fee + value + funding;
}

/**
 * The account's counters after a settlement: the breaker's streak, and the daily amount, which
 * the submission raised by the estimate and is corrected to what was charged, but only when the
 * submission counted toward today (one made before today's UTC midnight counted toward
 * yesterday, whose total no longer matters).
 */
export function countersFor(tx: Pick<RelayTransactionEntity, 'createdAt' | 'estimatedCostMicro'>, chargedMicro: bigint, success: boolean | null, now = new Date()): AccountCounters {
  const dayStart = utcDayStart(now);
  return { success, daily: tx.createdAt >= dayStart ? { dayStart, now, estimatedMicro: tx.estimatedCostMicro, chargedMicro } : null };
}
