import { Inject, Injectable, Logger } from '@nestjs/common';
import Redis from 'ioredis';
import { AppError } from '../../../common/errors/app-error';
import { REDIS } from '../../../redis/redis.module';

/** A login message waiting for its signature. */
export interface PendingLogin {
  /** Lowercase address the message was issued for. */
  address: string;
  message: string;
  /** Unix seconds. */
  expiry: number;
}

/** Redis key of a pending login (the client adds REDIS_PREFIX). Exported for tests. */
export const loginMessageKey = (messageId: string): string => `auth:login-message:${messageId}`;

/**
 * Pending logins live in Redis, not in process memory, because the verify request may reach
 * another API instance than the one that issued the message.
 */
@Injectable()
export class LoginMessagesStore {
  private readonly logger = new Logger(LoginMessagesStore.name);

  constructor(@Inject(REDIS) private readonly redis: Redis) {}

  async put(messageId: string, login: PendingLogin, ttlSeconds: number): Promise<void> {
    // NX: a messageId collision must never overwrite someone else's pending login.
    const reply = await this.storage(this.redis.set(loginMessageKey(messageId), JSON.stringify(login), 'EX', ttlSeconds, 'NX'));
    if (reply !== 'OK') throw new AppError('SYSTEM_001', 'could not store the login message');
  }

  /**
   * Returns the pending login and deletes it in one step (GETDEL), so of a replay or two
   * concurrent verifies only one ever sees it. Null when unknown, used or expired.
   */
  async take(messageId: string): Promise<PendingLogin | null> {
    const raw = await this.storage(this.redis.getdel(loginMessageKey(messageId)));
    return raw === null ? null : (JSON.parse(raw) as PendingLogin);
  }

  /** Redis trouble is a storage failure (SYSTEM_001, per interface.md), logged with its cause. */
  private storage<T>(command: Promise<T>): Promise<T> {
    return command.catch((err: unknown) => {
      this.logger.error(`login message store: ${err instanceof Error ? err.message : String(err)}`);
      throw new AppError('SYSTEM_001', 'login message storage unavailable');
    });
  }
}
