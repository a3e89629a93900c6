import { Injectable } from '@nestjs/common';
import { AppError } from '../../../common/errors/app-error';
import { normalizeAddress } from '../../../common/evm/address';
import { usdToMicro } from '../../../common/money/usd';
import { SecretBox } from '../../../common/crypto/secret-box';
import { AppConfig } from '../../../config/app-config';
import { AccountLimitsDto } from '../dto/admin.dto';
import { ApprovalWebhookInputDto } from '../dto/policy.dto';
import type { AllowedTarget } from '../policy/allowed-target';
import { AccountEntity } from '../store/account.entity';
import { AccountStore } from '../store/account.store';
import { ApiKeyStore } from '../store/api-key.store';
import { ApiKeysService } from './api-keys.service';
import { LedgerService } from './ledger.service';
import { LowBalanceMonitor } from './low-balance-monitor';

/** Associated data of a sealed approval-webhook secret: it opens only on its own account's row. */
const approvalSecretContext = (userId: string): string => `approval-webhook:${userId}`;

/**
 * Account lookups and the operator commands (decisions.md, "Accounts and API keys"); the
 * admin CLI and the admin REST API both call this, never the repositories.
 */
@Injectable()
export class AccountsService {
  constructor(
    private readonly accounts: AccountStore,
    private readonly ledger: LedgerService,
    private readonly apiKeys: ApiKeysService,
    private readonly keyStore: ApiKeyStore,
    private readonly box: SecretBox,
    private readonly lowBalance: LowBalanceMonitor,
    private readonly config: AppConfig,
  ) {}

  async getByAddress(address: string): Promise<AccountEntity> {
    const normalized = normalizeAddress(address);
    if (!normalized) throw new AppError('USER_003');
    const account = await this.accounts.findByAddress(normalized);
    if (!account) throw new AppError('USER_001');
    return account;
  }

  async getById(userId: string): Promise<AccountEntity> {
    const account = await this.accounts.findById(userId);
    if (!account) throw new AppError('USER_001');
    return account;
  }

  /** Creates the account, its first key and the opening credit in one transaction. */
  async create(address: string, creditUsd = 0): Promise<{ userId: string; address: string; apiKey: string }> {
    const normalized = normalizeAddress(address);
    if (!normalized) throw new AppError('USER_003');
    const creditMicro = usdToMicro(creditUsd);
    return this.accounts.transaction(async (em) => {
      const id = await this.accounts.insertIfAbsent(normalized, em);
      if (!id) throw new AppError('VALIDATION_001', `an account for ${normalized} already exists`);
      if (creditMicro > 0n) await this.ledger.credit(id, creditMicro, 'opening credit', em);
      const { apiKey } = await this.apiKeys.issue(id, em);
      return { userId: id, address: normalized, apiKey };
    });
  }

  async credit(address: string, usd: number): Promise<AccountEntity> {
    const account = await this.getByAddress(address);
    await this.ledger.credit(account.id, usdToMicro(usd), 'operator credit');
    await this.lowBalance.check(account.id);
    return this.getById(account.id);
  }

  async issueKey(address: string): Promise<{ userId: string; apiKey: string }> {
    const account = await this.getByAddress(address);
    const { apiKey } = await this.apiKeys.issue(account.id);
    return { userId: account.id, apiKey };
  }

  /** Accounts, newest first (the operator CLI's `accounts list`). */
  list(options: { limit: number; offset: number }): Promise<AccountEntity[]> {
    return this.accounts.list(options.limit, options.offset);
  }

  /** The account's API keys: prefix, creation, revocation; never the key or its hash. */
  async listKeys(address: string): Promise<Array<{ keyId: string; prefix: string; createdAt: string; revokedAt: string | null; rateLimitPerMinute: number | null }>> {
    const account = await this.getByAddress(address);
    const keys = await this.keyStore.listByUser(account.id);
    return keys.map((k) => ({
      keyId: k.id,
      prefix: k.keyPrefix,
      createdAt: k.createdAt.toISOString(),
      revokedAt: k.revokedAt ? k.revokedAt.toISOString() : null,
      rateLimitPerMinute: k.rateLimitPerMinute,
    }));
  }

  revokeKey(key: string): Promise<void> {
    return this.apiKeys.revoke(key);
  }

  async setLimits(address: string, limits: AccountLimitsDto): Promise<AccountEntity> {
    const account = await this.getByAddress(address);
    const patch: Partial<Omit<AccountEntity, 'defaultRelayAccount'>> = {};
    if (limits.perTxLimit !== undefined) patch.perTxLimitMicro = usdToMicro(limits.perTxLimit);
    if (limits.dailyLimit !== undefined) patch.dailyLimitMicro = usdToMicro(limits.dailyLimit);
    if (limits.maxRetries !== undefined) patch.maxRetries = limits.maxRetries;
    if (limits.circuitBreakerEnabled !== undefined) patch.circuitBreakerEnabled = limits.circuitBreakerEnabled;
    if (limits.failureCountStreakLimit !== undefined) patch.failureStreakLimit = limits.failureCountStreakLimit;
    if (limits.disabledChainIds !== undefined) patch.disabledChainIds = [...new Set(limits.disabledChainIds)];
    if (limits.disabled !== undefined) patch.disabled = limits.disabled;
    if (limits.legacyDerivation !== undefined) patch.legacyDerivation = limits.legacyDerivation;
    if (limits.resetFailureStreak) patch.failureStreak = 0;
    if (limits.ipWhitelist !== undefined) patch.ipWhitelist = [...new Set(limits.ipWhitelist.map((ip) => ip.trim().toLowerCase()))];
    if (limits.domainWhitelist !== undefined) patch.domainWhitelist = [...new Set(limits.domainWhitelist.map((d) => d.trim().toLowerCase()))];
    if (limits.allowedTargets !== undefined) patch.allowedTargets = limits.allowedTargets.map(normalizeTarget);
    if (limits.lowBalanceThresholdUsd !== undefined) {
      patch.lowBalanceThresholdMicro = limits.lowBalanceThresholdUsd === null ? null : usdToMicro(limits.lowBalanceThresholdUsd);
      // A new threshold starts a new watch: the balance is compared with it afresh.
      patch.lowBalanceAlerted = false;
    }
    if (limits.approvalWebhook !== undefined) Object.assign(patch, this.approvalPatch(account, limits.approvalWebhook));
    if (Object.keys(patch).length > 0) {
      await this.accounts.update(account.id, patch);
      // Authentication hands out the account's settings (disabled, chains, policy): cached copies must go.
      await this.apiKeys.accountChanged();
    }
    if (limits.lowBalanceThresholdUsd !== undefined) await this.lowBalance.check(account.id);
    return this.getById(account.id);
  }

  /** The approval webhook to ask for this account, with its secret opened; null when none is enabled. */
  approvalWebhookOf(account: AccountEntity): { url: string; secret: string } | null {
    if (!account.approvalWebhookEnabled || !account.approvalWebhookUrl || !account.approvalWebhookSecretSealed) return null;
    return { url: account.approvalWebhookUrl, secret: this.box.open(account.approvalWebhookSecretSealed, approvalSecretContext(account.id)) };
  }

  /** Sets (or, with null, clears) a key's requests per minute; RESOURCE_001 for an unknown key id. */
  async setKeyRateLimit(keyId: string, rateLimitPerMinute: number | null): Promise<void> {
    if (!(await this.keyStore.setRateLimit(keyId, rateLimitPerMinute))) throw new AppError('RESOURCE_001', 'no API key with this id');
    // The limit travels with the authenticated key: every instance must read it again.
    await this.apiKeys.accountChanged();
  }

  private approvalPatch(account: AccountEntity, input: ApprovalWebhookInputDto | null): Partial<AccountEntity> {
    if (input === null) return { approvalWebhookUrl: null, approvalWebhookSecretSealed: null, approvalWebhookEnabled: false };
    if (input.url !== undefined && input.secret !== undefined) {
      this.checkApprovalScheme(input.url);
      return {
        approvalWebhookUrl: input.url,
        approvalWebhookSecretSealed: this.box.seal(input.secret, approvalSecretContext(account.id)),
        approvalWebhookEnabled: input.enabled ?? true,
      };
    }
    if (input.url !== undefined || input.secret !== undefined) throw new AppError('VALIDATION_001', 'approvalWebhook needs both url and secret');
    if (input.enabled === undefined) throw new AppError('VALIDATION_001', 'approvalWebhook needs url and secret, or enabled alone to switch the configured one');
    if (account.approvalWebhookUrl === null) throw new AppError('VALIDATION_001', 'the account has no approval webhook to switch; give url and secret');
    return { approvalWebhookEnabled: input.enabled };
  }

  /**
   * The approval webhook decides what the relay pays for and carries the account's signed
   * transaction details: outside the local stack it must be https, so nobody on the path can
   * read or forge the answer (docs/security.md).
   */
  private checkApprovalScheme(url: string): void {
    if (/^https:\/\//i.test(url)) return;
    if (this.config.NODE_ENV !== 'production' || this.config.APPROVAL_WEBHOOK_ALLOW_HTTP) return;
    throw new AppError('VALIDATION_001', 'approvalWebhook.url must be https:// (plain http only in development and test, or with APPROVAL_WEBHOOK_ALLOW_HTTP=true)');
  }
}

function normalizeTarget(t: { chainId?: number; address: string; selectors?: string[] }): AllowedTarget {
  const target: AllowedTarget = { address: t.address.toLowerCase() };
  if (t.chainId !== undefined) target.chainId = t.chainId;
  if (t.selectors !== undefined) target.selectors = [...new Set(t.selectors.map((sel) => sel.toLowerCase()))];
  return target;
}
