import { Controller, Get, Query } from '@nestjs/common';
import { IsInt, IsOptional } from 'class-validator';
import { Type } from 'class-transformer';
import { DataSource } from 'typeorm';
import { Caller, CurrentCaller } from '../src/common/http/authenticated-request';
import { Public } from '../src/common/http/public.decorator';
import { RateLimited } from '../src/modules/rate-limit/rate-limited.decorator';
import { createAccount, createTestApp, TestApp } from './support/test-app';

class ProbeQueryDto {
  @IsOptional() @Type(() => Number) @IsInt({ context: { code: 'VALIDATION_001' } })
  n?: number;
}

/** Handler runs of the check-alongside probe, to show which requests did work. */
let alongsideRuns = 0;

@Controller()
class RateLimitProbeController {
  @RateLimited({ checkAlongside: true })
  @Get('gasless/_rate-limited-alongside')
  async alongside(@CurrentCaller() caller: Caller, @Query() query: ProbeQueryDto) {
    alongsideRuns++;
    return { userId: caller.account.id, n: query.n ?? null };
  }

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

  describe('checking alongside the handler (GET /quote)', () => {
    const probe = '/gasless/_rate-limited-alongside';

    it('counts down, then 429 with Retry-After; once denied, the handler no longer runs', async () => {
      const apiKey = await accountWithLimit(2);
      for (const remaining of [1, 0]) {
        const ok = await t.http().get(probe).set('api-key', apiKey).expect(200);
        expect(ok.body).toMatchObject({ code: 0, data: { n: null } });
        expect(ok.headers['ratelimit-limit']).toBe('2');
        expect(ok.headers['ratelimit-remaining']).toBe(String(remaining));
      }
      // The last answer had no room left, so the next one is checked before its handler.
      const before = alongsideRuns;
      for (let i = 0; i < 3; i++) {
        const denied = await t.http().get(probe).set('api-key', apiKey).expect(429);
        expect(denied.body).toEqual({ code: 429, data: null, message: expect.stringMatching(/rate limit/) });
        expect(Number(denied.headers['retry-after'])).toBeGreaterThanOrEqual(1);
        expect(denied.headers['ratelimit-remaining']).toBe('0');
      }
      expect(alongsideRuns).toBe(before);
    });

    it('lets exactly the limit through when requests arrive together, and never answers a denied one', async () => {
      const apiKey = await accountWithLimit(5);
      const responses = await Promise.all(Array.from({ length: 20 }, () => t.http().get(probe).set('api-key', apiKey)));
      expect(responses.filter((r) => r.status === 200)).toHaveLength(5);
      const denied = responses.filter((r) => r.status === 429);
      expect(denied).toHaveLength(15);
      for (const r of denied) expect(r.body.data).toBeNull();
    });

    it('a denial wins over a validation error; an allowed bad request is its 400 with the headers', async () => {
      const apiKey = await accountWithLimit(1);
      // Together, so every handler runs alongside its check: one is counted, the rest are denied.
      const responses = await Promise.all(Array.from({ length: 4 }, () => t.http().get(`${probe}?n=x`).set('api-key', apiKey)));
      const statuses = responses.map((r) => r.status).sort();
      expect(statuses).toEqual([400, 429, 429, 429]);
      const bad = responses.find((r) => r.status === 400)!;
      expect(bad.body).toMatchObject({ code: 400, data: null });
      expect(bad.headers['ratelimit-remaining']).toBe('0');
    });
  });

  it('does not limit routes without a caller', async () => {
    const res = await t.http().get('/api/_rate-limited/public').expect(200);
    expect(res.headers['ratelimit-limit']).toBeUndefined();
  });
});
