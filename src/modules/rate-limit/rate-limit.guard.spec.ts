import { ExecutionContext, Logger } from '@nestjs/common';
import { AppError } from '../../common/errors/app-error';
import { AuthenticatedRequest, Caller } from '../../common/http/authenticated-request';
import { AppConfig } from '../../config/app-config';
import type { Account } from '../accounts';
import { Reflector } from '@nestjs/core';
import { RateLimitGuard } from './rate-limit.guard';
import { pendingDecision } from './pending-rate-limit';
import { CHECK_ALONGSIDE, PER_IP_LIMIT, RateLimitedPerIp } from './rate-limited.decorator';
import { PendingRateLimitInterceptor } from './pending-rate-limit.interceptor';
import { RateLimitResult, RateLimitService } from './rate-limit.service';

function httpContext(caller?: Caller, ip = '203.0.113.7'): { context: ExecutionContext; headers: Map<string, string> } {
  const headers = new Map<string, string>();
  const req = { caller, ip } as AuthenticatedRequest;
  const res = { setHeader: (name: string, value: string) => headers.set(name, value) };
  const context = {
    getType: () => 'http',
    switchToHttp: () => ({ getRequest: () => req, getResponse: () => res }),
    getHandler: () => handler,
    getClass: () => class {},
  } as unknown as ExecutionContext;
  return { context, headers };
}

const account = { id: 'acc-1' } as Account;
const config = { RATE_LIMIT_PER_MINUTE: 600, LOGIN_RATE_LIMIT_PER_MINUTE: 30, PUBLIC_RATE_LIMIT_PER_MINUTE: 300, ADMIN_RATE_LIMIT_PER_MINUTE: 120 } as AppConfig;
let handler: () => void = () => undefined;

function guardWith(consume: (keyId: string, limit: number) => Promise<RateLimitResult>) {
  const limiter = { consume: jest.fn(consume) };
  return { guard: new RateLimitGuard(limiter as unknown as RateLimitService, config, new Reflector()), limiter };
}

describe('RateLimitGuard', () => {
  it('does not limit routes without a caller (public)', async () => {
    const { guard, limiter } = guardWith(async () => ({ allowed: true, limit: 1, remaining: 0, resetSeconds: 60 }));
    const { context, headers } = httpContext(undefined);
    await expect(guard.canActivate(context)).resolves.toBe(true);
    expect(limiter.consume).not.toHaveBeenCalled();
    expect(headers.size).toBe(0);
  });

  it('limits public per-IP routes by client IP with the login limit', async () => {
    const { guard, limiter } = guardWith(async (_, limit) => ({ allowed: false, limit, remaining: 0, resetSeconds: 42, retryAfterSeconds: 42 }));
    handler = () => undefined;
    Reflect.defineMetadata(PER_IP_LIMIT, 'login', handler);
    const { context, headers } = httpContext(undefined, '198.51.100.4');
    await expect(guard.canActivate(context)).rejects.toMatchObject({ code: 'RESOURCE_003', headers: { 'Retry-After': '42' } });
    expect(limiter.consume).toHaveBeenCalledWith('ip:login:198.51.100.4', 30);
    expect(headers.get('RateLimit-Limit')).toBe('30');
    handler = () => undefined;
  });

  it('keeps one window per IP scope, each with its own limit', async () => {
    const { guard, limiter } = guardWith(async (_, limit) => ({ allowed: true, limit, remaining: limit - 1, resetSeconds: 60 }));
    for (const [scope, limit] of [['public', 300], ['admin', 120]] as const) {
      handler = () => undefined;
      Reflect.defineMetadata(PER_IP_LIMIT, scope, handler);
      await guard.canActivate(httpContext(undefined, '198.51.100.9').context);
      expect(limiter.consume).toHaveBeenLastCalledWith(`ip:${scope}:198.51.100.9`, limit);
    }
    handler = () => undefined;
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

  it('checking alongside: lets the handler start before Redis answers, then waits only for exhausted keys', async () => {
    handler = () => undefined;
    Reflect.defineMetadata(CHECK_ALONGSIDE, true, handler);
    let answer: (r: RateLimitResult) => void = () => undefined;
    const { guard } = guardWith(() => new Promise<RateLimitResult>((resolve) => (answer = resolve)));
    const first = httpContext({ account, keyId: 'key-1', rateLimitPerMinute: 1 });
    await expect(guard.canActivate(first.context)).resolves.toBe(true);
    const decision = pendingDecision(first.context.switchToHttp().getRequest())!;
    expect(first.headers.size).toBe(0);
    answer({ allowed: false, limit: 1, remaining: 0, resetSeconds: 9, retryAfterSeconds: 9 });
    await expect(decision).rejects.toMatchObject({ code: 'RESOURCE_003' });
    expect(first.headers.get('RateLimit-Remaining')).toBe('0');

    // The key is now known to be exhausted: the next request waits for its verdict before any handler work.
    const second = httpContext({ account, keyId: 'key-1', rateLimitPerMinute: 1 });
    const pending = guard.canActivate(second.context);
    answer({ allowed: false, limit: 1, remaining: 0, resetSeconds: 8, retryAfterSeconds: 8 });
    await expect(pending).rejects.toMatchObject({ code: 'RESOURCE_003' });
    expect(pendingDecision(second.context.switchToHttp().getRequest())).toBeUndefined();
    handler = () => undefined;
  });

  it('a per-IP route may check alongside (GET /tx): its read starts before Redis answers, and a denial still wins', async () => {
    class Reads {
      @RateLimitedPerIp('public', { checkAlongside: true })
      tx(): void {}
    }
    handler = Reads.prototype.tx;
    expect(Reflect.getMetadata('__interceptors__', handler)).toContain(PendingRateLimitInterceptor);
    let answer: (r: RateLimitResult) => void = () => undefined;
    const { guard, limiter } = guardWith(() => new Promise<RateLimitResult>((resolve) => (answer = resolve)));
    const { context, headers } = httpContext(undefined, '198.51.100.20');
    await expect(guard.canActivate(context)).resolves.toBe(true);
    expect(limiter.consume).toHaveBeenCalledWith('ip:public:198.51.100.20', 300);
    const decision = pendingDecision(context.switchToHttp().getRequest())!;
    expect(decision).toBeDefined();
    answer({ allowed: false, limit: 300, remaining: 0, resetSeconds: 7, retryAfterSeconds: 7 });
    await expect(decision).rejects.toMatchObject({ code: 'RESOURCE_003' });
    expect(headers.get('RateLimit-Remaining')).toBe('0');
    handler = () => undefined;
  });
});
