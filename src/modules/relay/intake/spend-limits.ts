import { AppError } from '../../../common/errors/app-error';
import { microToUsd } from '../../../common/money/usd';
import { dailyConsumedMicro } from '../../accounts';
import type { Account } from '../../accounts';

/**
 * Names the account limit that refused a reservation. The decision itself is made in SQL by
 * `LedgerService.reserveWithinLimits` (the same limits, in its UPDATE's WHERE); this reads the
 * account afterwards to answer with the right code. The balance is the ledger's TRANSACTION_002.
 * `addedMicro`: what the reservation adds today (a fee raise adds only the difference to the
 * `costMicro` the transaction's whole reservation becomes).
 */
export function checkSpendLimits(account: Account, chainId: number, costMicro: bigint, now = new Date(), addedMicro = costMicro): void {
  if (account.disabledChainIds.includes(chainId)) throw new AppError('CHAIN_001', `chain ${chainId} is disabled for this account`);
  if (account.circuitBreakerEnabled && account.failureStreak >= account.failureStreakLimit) {
    throw new AppError(
      'TRANSACTION_007',
      `circuit breaker open after ${account.failureStreak} consecutive failed transactions; an operator resets it with accounts limits --reset-streak`,
    );
  }
  if (costMicro > account.perTxLimitMicro) {
    throw new AppError('TRANSACTION_001', `estimated cost ${microToUsd(costMicro)} USD exceeds the per-transaction limit of ${microToUsd(account.perTxLimitMicro)} USD`);
  }
  const consumed = dailyConsumedMicro(account, now);
  if (consumed + addedMicro > account.dailyLimitMicro) {
    throw new AppError(
      'TRANSACTION_006',
      `daily limit of ${microToUsd(account.dailyLimitMicro)} USD would be exceeded (${microToUsd(consumed)} USD used today)`,
    );
  }
}
