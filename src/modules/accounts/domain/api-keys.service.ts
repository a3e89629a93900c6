import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { createHash, randomBytes } from 'node:crypto';
import { EntityManager, IsNull, Repository } from 'typeorm';
import { AppError } from '../../../common/errors/app-error';
import { AccountEntity } from '../entities/account.entity';
import { ApiKeyEntity } from '../entities/api-key.entity';
import { ApiKeyCache } from './api-key-cache';

const KEY_PREFIX = 'rk_';

export interface AuthenticatedKey {
  keyId: string;
  account: AccountEntity;
  rateLimitPerMinute: number | null;
}

export function hashApiKey(plain: string): string {
  return createHash('sha256').update(plain).digest('hex');
}

@Injectable()
export class ApiKeysService {
  constructor(
    @InjectRepository(ApiKeyEntity) private readonly keys: Repository<ApiKeyEntity>,
    private readonly cache: ApiKeyCache,
  ) {}

  /** Issues a key; the plain text is returned once and only its hash is stored. */
  async issue(userId: string, em?: EntityManager): Promise<{ apiKey: string; keyId: string }> {
    const apiKey = `${KEY_PREFIX}${randomBytes(32).toString('base64url')}`;
    const repo = em ? em.getRepository(ApiKeyEntity) : this.keys;
    const saved = await repo.save(repo.create({ userId, keyHash: hashApiKey(apiKey), keyPrefix: apiKey.slice(0, 10), revokedAt: null }));
    return { apiKey, keyId: saved.id };
  }

  /** Revokes by plain key; RESOURCE_001 when no live key matches. */
  async revoke(plain: string): Promise<void> {
    const result = await this.keys.update({ keyHash: hashApiKey(plain), revokedAt: IsNull() }, { revokedAt: new Date() });
    if (!result.affected) throw new AppError('RESOURCE_001', 'no active API key matches');
    await this.cache.changed();
  }

  /** AUTH_002 for unknown, revoked or disabled-account keys. */
  authenticate(plain: string): Promise<AuthenticatedKey> {
    const hash = hashApiKey(plain);
    return this.cache.get(hash, async () => {
      const key = await this.keys.findOne({ where: { keyHash: hash }, relations: { account: true } });
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
