import { AppError } from '../../../common/errors/app-error';
import { microToUsd, usdToMicro } from '../../../common/money/usd';
import { dailyConsumedMicro } from '../../accounts/domain/daily-window';
import { AccountEntity } from '../../accounts/entities/account.entity';

/**
 * The account-side checks of a submission, run on the row-locked account inside the
 * transaction that reserves the cost (the balance itself is the ledger's check).
 */
export function checkSpendLimits(account: AccountEntity, chainId: number, costMicro: bigint, maxUsd: number | null, now = new Date()): void {
  if (account.disabledChainIds.includes(chainId)) throw new AppError('CHAIN_001', `chain ${chainId} is disabled for this account`);
  if (account.circuitBreakerEnabled && account.failureStreak >= account.failureStreakLimit) {
    throw new AppError(
      'TRANSACTION_007',
      `circuit breaker open after ${account.failureStreak} consecutive failed transactions; an operator resets it with accounts limits --reset-streak`,
    );
  }
  if (maxUsd !== null && costMicro > usdToMicro(maxUsd)) {
    throw new AppError('TRANSACTION_001', `estimated cost ${microToUsd(costMicro)} USD exceeds maxUSD ${maxUsd}`);
  }
  if (costMicro > account.perTxLimitMicro) {
    throw new AppError('TRANSACTION_001', `estimated cost ${microToUsd(costMicro)} USD exceeds the per-transaction limit of ${microToUsd(account.perTxLimitMicro)} USD`);
  }
  const consumed = dailyConsumedMicro(account, now);
  if (consumed + costMicro > account.dailyLimitMicro) {
    throw new AppError(
      'TRANSACTION_006',
      `daily limit of ${microToUsd(account.dailyLimitMicro)} USD would be exceeded (${microToUsd(consumed)} USD used today)`,
    );
  }
}
