import Redis from 'ioredis';
import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { testEnv } from '../../../test/support/test-env';
import { RateLimitService } from './rate-limit.service';

/** Against the test stack's Redis (db 15), with the app's key prefix and a short window. */
describe('RateLimitService (Redis)', () => {
  const prefix = `${testEnv().REDIS_PREFIX}:`;
  let redis: Redis;

  beforeAll(() => {
    redis = new Redis(testEnv().REDIS_URL, { keyPrefix: prefix });
  });
  afterAll(() => redis.quit());

  const service = (windowMs: number) => new RateLimitService(redis, windowMs);
  const newKey = () => `test-${randomUUID()}`;

  it('lets exactly `limit` of 50 concurrent requests through', async () => {
    const key = newKey();
    const results = await Promise.all(Array.from({ length: 50 }, () => service(60_000).consume(key, 20)));
    const allowed = results.filter((r) => r.allowed);
    expect(allowed).toHaveLength(20);
    expect(allowed.map((r) => r.remaining).sort((a, b) => a - b)).toEqual(Array.from({ length: 20 }, (_, i) => i));
    for (const denied of results.filter((r) => !r.allowed)) {
      expect(denied).toMatchObject({ limit: 20, remaining: 0 });
      expect(denied.retryAfterSeconds).toBeGreaterThanOrEqual(59);
      expect(denied.retryAfterSeconds).toBeLessThanOrEqual(60);
    }
  });

  it('slides: a request frees its slot one window after it was made, not at a fixed boundary', async () => {
    const limiter = service(1_000);
    const key = newKey();
    expect((await limiter.consume(key, 3)).allowed).toBe(true);
    expect((await limiter.consume(key, 3)).allowed).toBe(true);
    await sleep(500);
    expect(await limiter.consume(key, 3)).toMatchObject({ allowed: true, remaining: 0 });
    expect(await limiter.consume(key, 3)).toMatchObject({ allowed: false, retryAfterSeconds: 1 });

    // The first two have left the window, the third has not.
    await sleep(600);
    expect(await limiter.consume(key, 3)).toMatchObject({ allowed: true, remaining: 1 });
    expect(await limiter.consume(key, 3)).toMatchObject({ allowed: true, remaining: 0 });
    expect((await limiter.consume(key, 3)).allowed).toBe(false);
  });

  it('denied requests do not extend the wait', async () => {
    const limiter = service(1_000);
    const key = newKey();
    await limiter.consume(key, 1);
    for (let i = 0; i < 5; i++) expect((await limiter.consume(key, 1)).allowed).toBe(false);
    await sleep(1_100);
    expect((await limiter.consume(key, 1)).allowed).toBe(true);
  });

  it('keeps keys apart', async () => {
    const limiter = service(60_000);
    const [a, b] = [newKey(), newKey()];
    for (let i = 0; i < 2; i++) await limiter.consume(a, 2);
    expect((await limiter.consume(a, 2)).allowed).toBe(false);
    expect(await limiter.consume(b, 2)).toMatchObject({ allowed: true, remaining: 1 });
  });

  it('stores one expiring sorted set per key under the app prefix', async () => {
    const key = newKey();
    await service(60_000).consume(key, 5);
    const ttl = await redis.pttl(`rate-limit:${key}`);
    expect(ttl).toBeGreaterThan(59_000);
    expect(ttl).toBeLessThanOrEqual(60_000);
    const raw = new Redis(testEnv().REDIS_URL);
    try {
      expect(await raw.type(`${prefix}rate-limit:${key}`)).toBe('zset');
    } finally {
      await raw.quit();
    }
  });

  it('reloads the script after Redis forgets it', async () => {
    await redis.script('FLUSH');
    expect((await service(60_000).consume(newKey(), 1)).allowed).toBe(true);
  });
});
