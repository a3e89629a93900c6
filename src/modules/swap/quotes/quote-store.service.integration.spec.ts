import { Logger } from '@nestjs/common';
import Redis from 'ioredis';
import { randomBytes } from 'node:crypto';
import { testEnv } from '../../../../test/support/test-env';
import { QuoteStore } from './quote-store.service';
import type { StoredQuote } from './stored-quote';

const quote = (): StoredQuote =>
  ({ quoteId: `0x${randomBytes(32).toString('hex')}`, userId: 'u1', expiry: Math.floor(Date.now() / 1000) + 60, createdAt: 0, route: { quoteId: 'x' } }) as unknown as StoredQuote;

/** Against the test stack's Redis, with the app's key prefix. */
describe('QuoteStore (Redis)', () => {
  const prefix = `${testEnv().REDIS_PREFIX}:`;
  let redis: Redis;
  let other: Redis;

  beforeAll(async () => {
    redis = new Redis(testEnv().REDIS_URL, { keyPrefix: prefix });
    other = new Redis(testEnv().REDIS_URL, { keyPrefix: prefix });
    await Promise.all([redis.ping(), other.ping()]);
  });
  afterAll(() => Promise.all([redis.quit(), other.quit()]));

  it('a saved quote is readable by the very next call, on this connection and on another', async () => {
    const store = new QuoteStore(redis);
    for (let i = 0; i < 20; i++) {
      const quotes = [quote(), quote(), quote()];
      await store.saveAll(quotes);
      // No waiting in between: the save's commands are already on the connection.
      const loaded = await Promise.all(quotes.map((q) => store.load(q.quoteId)));
      expect(loaded.map((q) => q?.quoteId)).toEqual(quotes.map((q) => q.quoteId));
      expect(await new QuoteStore(other).load(quotes[2].quoteId)).toMatchObject({ quoteId: quotes[2].quoteId });
      expect(await redis.ttl(`swap:quote:${quotes[0].quoteId}`)).toBeGreaterThan(55);
    }
  });

  it('after a failed write, saves wait for Redis and answer SYSTEM_001', async () => {
    const error = jest.spyOn(Logger.prototype, 'error').mockImplementation(() => undefined);
    try {
      // A healthy connection whose writes Redis refuses (WRONGTYPE-like errors come back per command).
      const refusing = Object.create(redis) as Redis;
      refusing.pipeline = () => {
        const p = redis.pipeline();
        p.exec = (() => Promise.resolve([[new Error('OOM command not allowed'), null]])) as typeof p.exec;
        return p;
      };
      const store = new QuoteStore(refusing);
      await expect(store.saveAll([quote()])).resolves.toBeUndefined();
      await new Promise((r) => setImmediate(r));
      expect(error).toHaveBeenCalledWith(expect.stringContaining('OOM command not allowed'));
      await expect(store.saveAll([quote()])).rejects.toMatchObject({ code: 'SYSTEM_001' });
    } finally {
      error.mockRestore();
    }
  });

  it('waits and answers SYSTEM_001 while the connection is not ready', async () => {
    const down = new Redis({ port: 1, lazyConnect: true, maxRetriesPerRequest: 0, enableOfflineQueue: false, retryStrategy: () => null });
    const error = jest.spyOn(Logger.prototype, 'error').mockImplementation(() => undefined);
    try {
      await expect(new QuoteStore(down).saveAll([quote()])).rejects.toMatchObject({ code: 'SYSTEM_001' });
    } finally {
      error.mockRestore();
      down.disconnect();
    }
  });
});
