import { ExecutionContext, Logger } from '@nestjs/common';
import { AppError } from '../../common/errors/app-error';
import { AuthenticatedRequest, Caller } from '../../common/http/authenticated-request';
import { AppConfig } from '../../config/app-config';
import type { AccountEntity } from '../accounts';
import { RateLimitGuard } from './rate-limit.guard';
import { RateLimitResult, RateLimitService } from './rate-limit.service';

function httpContext(caller?: Caller): { context: ExecutionContext; headers: Map<string, string> } {
  const headers = new Map<string, string>();
  const req = { caller } as AuthenticatedRequest;
  const res = { setHeader: (name: string, value: string) => headers.set(name, value) };
  const context = {
    getType: () => 'http',
    switchToHttp: () => ({ getRequest: () => req, getResponse: () => res }),
  } as unknown as ExecutionContext;
  return { context, headers };
}

const account = { id: 'acc-1' } as AccountEntity;
const config = { RATE_LIMIT_PER_MINUTE: 600 } as AppConfig;

function guardWith(consume: (keyId: string, limit: number) => Promise<RateLimitResult>) {
  const limiter = { consume: jest.fn(consume) };
  return { guard: new RateLimitGuard(limiter as unknown as RateLimitService, config), limiter };
}

describe('RateLimitGuard', () => {
  it('does not limit routes without a caller (public)', async () => {
    const { guard, limiter } = guardWith(async () => ({ allowed: true, limit: 1, remaining: 0, resetSeconds: 60 }));
    const { context, headers } = httpContext(undefined);
    await expect(guard.canActivate(context)).resolves.toBe(true);
    expect(limiter.consume).not.toHaveBeenCalled();
    expect(headers.size).toBe(0);
  });

  it('uses the key limit, else the deployment default, and sets the headers', async () => {
    const { guard, limiter } = guardWith(async (_, limit) => ({ allowed: true, limit, remaining: limit - 1, resetSeconds: 60 }));
    const own = httpContext({ account, keyId: 'key-1', rateLimitPerMinute: 5 });
    await guard.canActivate(own.context);
    expect(limiter.consume).toHaveBeenLastCalledWith('key-1', 5);
    expect(Object.fromEntries(own.headers)).toEqual({ 'RateLimit-Limit': '5', 'RateLimit-Remaining': '4', 'RateLimit-Reset': '60' });

    await guard.canActivate(httpContext({ account, keyId: 'key-2', rateLimitPerMinute: null }).context);
    expect(limiter.consume).toHaveBeenLastCalledWith('key-2', 600);
    await guard.canActivate(httpContext({ account }).context);
    expect(limiter.consume).toHaveBeenLastCalledWith('account:acc-1', 600);
  });

  it('denies with RESOURCE_003 and Retry-After, keeping the headers', async () => {
    const { guard } = guardWith(async () => ({ allowed: false, limit: 2, remaining: 0, resetSeconds: 17, retryAfterSeconds: 17 }));
    const { context, headers } = httpContext({ account, keyId: 'key-1', rateLimitPerMinute: 2 });
    const error = await guard.canActivate(context).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AppError);
    expect(error).toMatchObject({ code: 'RESOURCE_003', status: 429, headers: { 'Retry-After': '17' } });
    expect(headers.get('RateLimit-Remaining')).toBe('0');
  });

  it('fails open when Redis errors or hangs, warning once per interval', async () => {
    const warn = jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
    try {
      const failing = guardWith(() => Promise.reject(new Error('ECONNREFUSED')));
      const { context, headers } = httpContext({ account, keyId: 'key-1' });
      await expect(failing.guard.canActivate(context)).resolves.toBe(true);
      await expect(failing.guard.canActivate(context)).resolves.toBe(true);
      expect(headers.size).toBe(0);
      expect(warn).toHaveBeenCalledTimes(1);

      jest.useFakeTimers();
      const hanging = guardWith(() => new Promise<never>(() => undefined));
      const pending = hanging.guard.canActivate(httpContext({ account, keyId: 'key-1' }).context);
      await jest.advanceTimersByTimeAsync(500);
      await expect(pending).resolves.toBe(true);
    } finally {
      jest.useRealTimers();
      warn.mockRestore();
    }
  });
});
