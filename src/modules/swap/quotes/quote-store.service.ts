import { randomBytes } from 'node:crypto';
import { Inject, Injectable, Logger } from '@nestjs/common';
import Redis from 'ioredis';
import { AppError } from '../../../common/errors/app-error';
import { REDIS } from '../../../redis/redis.module';
import type { StoredQuote } from './stored-quote';

/** Redis key of a quote (the client adds REDIS_PREFIX). Exported for tests. */
export const quoteKey = (quoteId: string): string => `swap:quote:${quoteId}`;

/**
 * Route quotes live in Redis with their expiry as TTL, so any API instance can build a quote
 * another one issued, and an expired quote is simply gone (404).
 */
@Injectable()
export class QuoteStore {
  private readonly logger = new Logger(QuoteStore.name);

  constructor(@Inject(REDIS) private readonly redis: Redis) {}

  /** 32 random bytes as 0x hex: also the `ref` the executor's Swapped event carries. */
  newId(): string {
    return `0x${randomBytes(32).toString('hex')}`;
  }

  async saveAll(quotes: StoredQuote[]): Promise<void> {
    if (quotes.length === 0) return;
    const now = Math.floor(Date.now() / 1000);
    const pipeline = this.redis.multi();
    for (const quote of quotes) pipeline.set(quoteKey(quote.quoteId), JSON.stringify(quote), 'EX', Math.max(1, quote.expiry - now));
    await pipeline.exec().catch((err: Error) => {
      this.logger.error(`quote store: ${err.message}`);
      throw new AppError('SYSTEM_001', 'quote storage unavailable');
    });
  }

  /** The quote while it is valid; null when unknown or expired. */
  async load(quoteId: string): Promise<StoredQuote | null> {
    const raw = await this.redis.get(quoteKey(quoteId)).catch((err: Error) => {
      this.logger.error(`quote store: ${err.message}`);
      throw new AppError('SYSTEM_001', 'quote storage unavailable');
    });
    if (raw === null) return null;
    let quote: StoredQuote;
    try {
      quote = JSON.parse(raw) as StoredQuote;
    } catch {
      throw new AppError('VALIDATION_001', `stored quote ${quoteId} is not readable`);
    }
    // The TTL and the stored expiry agree; checking both keeps a clock-skewed TTL from extending a quote.
    return typeof quote.expiry === 'number' && quote.expiry > Date.now() / 1000 ? quote : null;
  }
}
