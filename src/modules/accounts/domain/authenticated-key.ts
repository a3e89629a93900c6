import type { AccountEntity } from '../store/account.entity';

/** What authenticating an API key yields (cached by ApiKeyCache). */
export interface AuthenticatedKey {
  keyId: string;
  account: AccountEntity;
  rateLimitPerMinute: number | null;
}
