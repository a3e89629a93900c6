import { Injectable } from '@nestjs/common';
import { createHash, randomBytes } from 'node:crypto';
import { EntityManager } from 'typeorm';
import { AppError } from '../../../common/errors/app-error';
import { ApiKeyStore } from '../store/api-key.store';
import { ApiKeyCache } from './api-key-cache';
import { AuthenticatedKey } from './authenticated-key';

const KEY_PREFIX = 'rk_';

export function hashApiKey(plain: string): string {
  return createHash('sha256').update(plain).digest('hex');
}

@Injectable()
export class ApiKeysService {
  constructor(
    private readonly keys: ApiKeyStore,
    private readonly cache: ApiKeyCache,
  ) {}

  /** Issues a key; the plain text is returned once and only its hash is stored. */
  async issue(userId: string, em?: EntityManager): Promise<{ apiKey: string; keyId: string }> {
    const apiKey = `${KEY_PREFIX}${randomBytes(32).toString('base64url')}`;
    const keyId = await this.keys.insert({ userId, keyHash: hashApiKey(apiKey), keyPrefix: apiKey.slice(0, 10) }, em);
    return { apiKey, keyId };
  }

  /** Revokes by plain key; RESOURCE_001 when no live key matches. */
  async revoke(plain: string): Promise<void> {
    if (!(await this.keys.revoke(hashApiKey(plain)))) throw new AppError('RESOURCE_001', 'no active API key matches');
    await this.cache.changed();
  }

  /** AUTH_002 for unknown, revoked or disabled-account keys. */
  authenticate(plain: string): Promise<AuthenticatedKey> {
    const hash = hashApiKey(plain);
    return this.cache.get(hash, async () => {
      const key = await this.keys.findWithAccount(hash);
      if (!key || key.revokedAt || !key.account) throw new AppError('AUTH_002');
      if (key.account.disabled) throw new AppError('AUTH_002', 'account disabled');
      return { keyId: key.id, account: key.account, rateLimitPerMinute: key.rateLimitPerMinute };
    });
  }

  /** After an account's settings changed: cached keys of it must be read again. */
  accountChanged(): Promise<void> {
    return this.cache.changed();
  }
}
