import { Controller, Get } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { Caller, CurrentCaller } from '../src/common/http/authenticated-request';
import { Public } from '../src/common/http/public.decorator';
import { RateLimited } from '../src/modules/rate-limit/rate-limited.decorator';
import { createAccount, createTestApp, TestApp } from './support/test-app';

@Controller()
class RateLimitProbeController {
  @RateLimited()
  @Get('api/_rate-limited')
  limited(@CurrentCaller() caller: Caller) {
    return { userId: caller.account.id };
  }

  @RateLimited()
  @Get('gasless/_rate-limited')
  limitedCode(@CurrentCaller() caller: Caller) {
    return { userId: caller.account.id };
  }

  @Public()
  @RateLimited()
  @Get('api/_rate-limited/public')
  open() {
    return { ok: true };
  }
}

describe('rate limiting', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp({ controllers: [RateLimitProbeController] });
  });
  afterAll(() => t.close());

  /** The admin API has no per-key limit command yet, so the column is set directly. */
  async function accountWithLimit(limit: number | null): Promise<string> {
    const { apiKey, userId } = await createAccount(t);
    await t.app.get(DataSource).query('UPDATE api_keys SET rate_limit_per_minute = $1 WHERE user_id = $2', [limit, userId]);
    return apiKey;
  }

  it('counts down in the headers, then answers 429 RESOURCE_003 with Retry-After', async () => {
    const apiKey = await accountWithLimit(3);
    for (const remaining of [2, 1, 0]) {
      const ok = await t.http().get('/api/_rate-limited').set('api-key', apiKey).expect(200);
      expect(ok.headers['ratelimit-limit']).toBe('3');
      expect(ok.headers['ratelimit-remaining']).toBe(String(remaining));
      expect(Number(ok.headers['ratelimit-reset'])).toBeGreaterThanOrEqual(1);
      expect(Number(ok.headers['ratelimit-reset'])).toBeLessThanOrEqual(60);
    }

    const denied = await t.http().get('/api/_rate-limited').set('api-key', apiKey).expect(429);
    expect(denied.body).toMatchObject({ success: false, error: { code: 'RESOURCE_003', category: 'RESOURCE' } });
    expect(denied.body.error.message).toMatch(/rate limit/);
    expect(denied.body.error.traceId).toBe(denied.headers['x-trace-id']);
    const retryAfter = Number(denied.headers['retry-after']);
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(denied.headers['ratelimit-limit']).toBe('3');
    expect(denied.headers['ratelimit-remaining']).toBe('0');

    // The window is per key, not per route: the code-envelope route is already exhausted too.
    const code = await t.http().get('/gasless/_rate-limited').set('api-key', apiKey).expect(429);
    expect(code.body).toEqual({ code: 429, data: null, message: expect.stringMatching(/rate limit/) });
    expect(code.headers['retry-after']).toBeDefined();
  });

  it('another key keeps its own window, at the deployment default when it has no limit', async () => {
    const exhausted = await accountWithLimit(1);
    await t.http().get('/api/_rate-limited').set('api-key', exhausted).expect(200);
    await t.http().get('/api/_rate-limited').set('api-key', exhausted).expect(429);

    const other = await accountWithLimit(null);
    const ok = await t.http().get('/api/_rate-limited').set('api-key', other).expect(200);
    expect(ok.headers['ratelimit-limit']).toBe('600');
    expect(ok.headers['ratelimit-remaining']).toBe('599');
  });

  it('lets exactly the limit through when requests arrive together', async () => {
    const apiKey = await accountWithLimit(5);
    const statuses = await Promise.all(Array.from({ length: 20 }, () => t.http().get('/api/_rate-limited').set('api-key', apiKey).then((r) => r.status)));
    expect(statuses.filter((s) => s === 200)).toHaveLength(5);
    expect(statuses.filter((s) => s === 429)).toHaveLength(15);
  });

  it('does not limit routes without a caller', async () => {
    const res = await t.http().get('/api/_rate-limited/public').expect(200);
    expect(res.headers['ratelimit-limit']).toBeUndefined();
  });
});
