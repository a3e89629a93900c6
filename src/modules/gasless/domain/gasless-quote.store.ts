import { randomBytes } from 'node:crypto';
import { Inject, Injectable, Logger } from '@nestjs/common';
import Redis from 'ioredis';
import { AppError } from '../../../common/errors/app-error';
import { REDIS } from '../../../redis/redis.module';
import type { StoredGaslessQuote } from './gasless-quote';

const key = (quoteId: string): string => `gasless:quote:${quoteId}`;
const ID = /^gq_[0-9a-f]{32}$/;

/**
 * Gasless quotes live in Redis until their permit deadline (any API instance may receive the
 * submission). Single use is enforced by the swap table's unique quote id, not here: a quote is
 * removed only after a submission was recorded, so a bad signature cannot burn someone's quote.
 */
@Injectable()
export class GaslessQuoteStore {
  private readonly logger = new Logger(GaslessQuoteStore.name);

  constructor(@Inject(REDIS) private readonly redis: Redis) {}

  newId(): string {
    return `gq_${randomBytes(16).toString('hex')}`;
  }

  isGaslessId(quoteId: string): boolean {
    return ID.test(quoteId);
  }

  async saveAll(quotes: StoredGaslessQuote[]): Promise<void> {
    if (quotes.length === 0) return;
    const now = Math.floor(Date.now() / 1000);
    const multi = this.redis.multi();
    for (const q of quotes) multi.set(key(q.quoteId), JSON.stringify(q), 'EX', Math.max(q.deadline - now, 1));
    await this.storage(multi.exec());
  }

  async load(quoteId: string): Promise<StoredGaslessQuote | null> {
    if (!this.isGaslessId(quoteId)) return null;
    const raw = await this.storage(this.redis.get(key(quoteId)));
    return raw === null ? null : (JSON.parse(raw) as StoredGaslessQuote);
  }

  async remove(quoteId: string): Promise<void> {
    // Best effort: the database already refuses a second use of this quote.
    await this.redis.del(key(quoteId)).catch((err: Error) => this.logger.warn(`could not drop gasless quote ${quoteId}: ${err.message}`));
  }

  private storage<T>(command: Promise<T>): Promise<T> {
    return command.catch((err: unknown) => {
      this.logger.error(`gasless quote store: ${err instanceof Error ? err.message : String(err)}`);
      throw new AppError('SYSTEM_001', 'quote storage unavailable');
    });
  }
}
