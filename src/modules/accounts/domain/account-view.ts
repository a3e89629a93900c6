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

/** The policy fields of userConfig (extensions.md, "Account policy"). */
const POLICY_FIELDS = ['ipWhitelist', 'domainWhitelist', 'allowedTargets', 'lowBalanceThresholdUsd', 'approvalWebhook'] as const;

/**
 * What anyone may read of an account (GET /api/user without the account's credentials): no
 * policy fields. The lists name a team's servers and front ends, the approval webhook an
 * endpoint that decides its spending, the targets its contracts: a map for an attacker.
 */
export function toPublicAccountView(account: AccountEntity, now = new Date()): AccountView {
  const view = toAccountView(account, now);
  for (const field of POLICY_FIELDS) delete view.userConfig[field];
  return view;
}
