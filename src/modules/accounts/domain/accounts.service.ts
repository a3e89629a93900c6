import { Injectable } from '@nestjs/common';
import { AppError } from '../../../common/errors/app-error';
import { normalizeAddress } from '../../../common/evm/address';
import { usdToMicro } from '../../../common/money/usd';
import { AccountLimitsDto } from '../dto/admin.dto';
import { AccountEntity } from '../store/account.entity';
import { AccountStore } from '../store/account.store';
import { ApiKeyStore } from '../store/api-key.store';
import { ApiKeysService } from './api-keys.service';
import { LedgerService } from './ledger.service';

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
    if (limits.resetFailureStreak) patch.failureStreak = 0;
    if (Object.keys(patch).length > 0) {
      await this.accounts.update(account.id, patch);
      // Authentication hands out the account's settings (disabled, chains): cached copies must go.
      await this.apiKeys.accountChanged();
    }
    return this.getById(account.id);
  }
}
