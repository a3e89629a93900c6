import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, IsNull } from 'typeorm';
import { SqlRunner, SqlStore } from '../../../database/sql-store';
import { ApiKeyEntity } from './api-key.entity';
import { isUuid } from '../../../common/ids/uuid';

/** Every statement on `api_keys`. */
@Injectable()
export class ApiKeyStore extends SqlStore {
  constructor(@InjectDataSource() dataSource: DataSource) {
    super(dataSource);
  }

  async insert(key: { userId: string; keyHash: string; keyPrefix: string }, runner?: SqlRunner): Promise<string> {
    const repo = this.manager(runner).getRepository(ApiKeyEntity);
    const saved = await repo.save(repo.create({ ...key, revokedAt: null }));
    return saved.id;
  }

  /** True when a live key had this hash (and is now revoked). */
  async revoke(keyHash: string): Promise<boolean> {
    const result = await this.manager().update(ApiKeyEntity, { keyHash, revokedAt: IsNull() }, { revokedAt: new Date() });
    return Boolean(result.affected);
  }

  /** False when no key has this id. */
  async setRateLimit(keyId: string, rateLimitPerMinute: number | null): Promise<boolean> {
    if (!isUuid(keyId)) return false;
    const result = await this.manager().update(ApiKeyEntity, { id: keyId }, { rateLimitPerMinute });
    return Boolean(result.affected);
  }

  /** The account's keys, newest first. */
  listByUser(userId: string): Promise<ApiKeyEntity[]> {
    return this.manager().find(ApiKeyEntity, { where: { userId }, order: { createdAt: 'DESC' } });
  }

  findWithAccount(keyHash: string): Promise<ApiKeyEntity | null> {
    return this.manager().findOne(ApiKeyEntity, { where: { keyHash }, relations: { account: true } });
  }
}
