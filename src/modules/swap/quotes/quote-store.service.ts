import { randomBytes } from 'node:crypto';
import { Inject, Injectable, Logger } from '@nestjs/common';
import Redis from 'ioredis';
import { AppError } from '../../../common/errors/app-error';
import { REDIS } from '../../../redis/redis.module';
import type { StoredQuote } from './stored-quote';

/** Redis key of a quote (the client adds REDIS_PREFIX). Exported for tests. */
export const quoteKey = (quoteId: string): string => `swap:quote:${quoteId}`;

/** After a failed save, saves wait for Redis' reply for this long. */
const STRICT_AFTER_FAILURE_MS = 30_000;

/**
 * Route quotes live in Redis with their expiry as TTL, so any API instance can build a quote
 * another one issued, and an expired quote is simply gone (404).
 */
@Injectable()
export class QuoteStore {
  private readonly logger = new Logger(QuoteStore.name);
  private lastFailureAt = 0;

  constructor(@Inject(REDIS) private readonly redis: Redis) {}

  /** 32 random bytes as 0x hex: also the `ref` the executor's Swapped event carries. */
  newId(): string {
    return `0x${randomBytes(32).toString('hex')}`;
  }

  /**
   * Stores the quotes before the response that carries their ids goes out. The commands are on
   * the connection before this returns, so any later read on it (this instance's
   * build-path-by-id, gasless submit) finds them: one connection answers in order. On a healthy
   * connection the reply is not waited for, which takes a Redis round trip off GET /quote; a
   * failure then is logged, and the next saves wait for their replies (and answer SYSTEM_001
   * on failure) until STRICT_AFTER_FAILURE_MS has passed without one. See docs/decisions.md.
   */
  async saveAll(quotes: StoredQuote[]): Promise<void> {
    if (quotes.length === 0) return;
    const now = Math.floor(Date.now() / 1000);
    // A plain pipeline, not MULTI: each quote is its own key, and a partial failure is a failed save either way.
    const pipeline = this.redis.pipeline();
    for (const quote of quotes) pipeline.set(quoteKey(quote.quoteId), JSON.stringify(quote), 'EX', Math.max(1, quote.expiry - now));
    const healthy = this.redis.status === 'ready' && Date.now() - this.lastFailureAt > STRICT_AFTER_FAILURE_MS;
    const written = pipeline.exec().then((replies) => {
      const failed = replies?.find(([err]) => err)?.[0];
      if (failed) throw failed;
    });
    if (healthy) {
      written.catch((err: Error) => this.failed(err));
      return;
    }
    await written.catch((err: Error) => {
      this.failed(err);
      throw new AppError('SYSTEM_001', 'quote storage unavailable');
    });
  }

  private failed(err: Error): void {
    this.lastFailureAt = Date.now();
    this.logger.error(`quote store: ${err.message}`);
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
