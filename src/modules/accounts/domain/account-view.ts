import { microToUsd } from '../../../common/money/usd';
import { AccountEntity } from '../store/account.entity';
import { AccountViewDto } from '../dto/account-view.dto';
import { dailyConsumedMicro } from './daily-window';

export type AccountView = AccountViewDto;

export function toAccountView(account: AccountEntity, now = new Date()): AccountView {
  return {
    userId: account.id,
    address: account.address,
    availableBalance: microToUsd(account.availableMicro),
    pendingBalance: microToUsd(account.pendingMicro),
    disabled: account.disabled,
    defaultRelayAccount: account.defaultRelayAccount,
    userConfig: {
      perTxLimit: microToUsd(account.perTxLimitMicro),
      dailyLimit: microToUsd(account.dailyLimitMicro),
      dailyAmountConsumed: microToUsd(dailyConsumedMicro(account, now)),
      dailyAmountUpdatedAt: account.dailyUpdatedAt.toISOString(),
      disabledChainIds: account.disabledChainIds,
      maxRetries: account.maxRetries,
      circuitBreakerEnabled: account.circuitBreakerEnabled,
      failureCountStreakLimit: account.failureStreakLimit,
      failureCountStreak: account.failureStreak,
      ipWhitelist: account.ipWhitelist,
      domainWhitelist: account.domainWhitelist,
      allowedTargets: account.allowedTargets,
      lowBalanceThresholdUsd: account.lowBalanceThresholdMicro === null ? null : microToUsd(account.lowBalanceThresholdMicro),
      approvalWebhook: account.approvalWebhookUrl === null ? null : { url: account.approvalWebhookUrl, enabled: account.approvalWebhookEnabled },
    },
  };
}
