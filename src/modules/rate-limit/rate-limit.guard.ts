import { CanActivate, ExecutionContext, Injectable, Logger } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Response } from 'express';
import { AppError } from '../../common/errors/app-error';
import { AuthenticatedRequest, Caller } from '../../common/http/authenticated-request';
import { AppConfig } from '../../config/app-config';
import { RateLimitResult, RateLimitService } from './rate-limit.service';
import { ExhaustedBuckets } from './exhausted-buckets';
import { setPendingDecision } from './pending-rate-limit';
import { CHECK_ALONGSIDE, IpScope, PER_IP_LIMIT } from './rate-limited.decorator';

/** A healthy Redis answers in about a millisecond; past this the request goes through unlimited. */
const REDIS_TIMEOUT_MS = 500;
/** During an outage every limited request fails open; one warning per interval is enough. */
const WARN_INTERVAL_MS = 30_000;

/**
 * Applied with @RateLimited(). Runs after the global api-key guard, so `req.caller` is set on
 * every route that has one; public routes have none and are not limited. If Redis fails or is
 * slow the request is let through (fail-open, see docs/decisions.md) with a throttled warning.
 * Routes marked to check alongside get the decision as a pending promise on the request
 * (PendingRateLimitInterceptor awaits it), so Redis' round trip overlaps their handler.
 */
@Injectable()
export class RateLimitGuard implements CanActivate {
  private readonly logger = new Logger(RateLimitGuard.name);
  private lastWarningAt = 0;
  private failedOpenSinceWarning = 0;
  private readonly exhausted = new ExhaustedBuckets();
  private readonly routes = new WeakMap<object, { scope: IpScope | undefined; alongside: boolean }>();

  constructor(
    private readonly limiter: RateLimitService,
    private readonly config: AppConfig,
    private readonly reflector: Reflector,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    if (context.getType() !== 'http') return true;
    const http = context.switchToHttp();
    const req = http.getRequest<AuthenticatedRequest>();
    const caller = req.caller;
    const { scope, alongside } = this.routeOf(context);
    if (!caller && !scope) return true;

    // req.ip is the socket's address unless Express is told to trust a proxy (TRUST_PROXY).
    const ip = req.ip ?? req.socket?.remoteAddress ?? 'unknown';
    const limit = scope ? this.ipLimit(scope) : (caller!.rateLimitPerMinute ?? this.config.RATE_LIMIT_PER_MINUTE);
    const bucket = scope ? `ip:${scope}:${ip}` : bucketOf(caller!);
    const decision = this.decide(bucket, limit, http.getResponse<Response>());
    if (alongside && !this.exhausted.has(bucket)) {
      setPendingDecision(req, decision);
      return true;
    }
    await decision;
    return true;
  }

  /** The route's settings, read once per handler (metadata is fixed once the app is built). */
  private routeOf(context: ExecutionContext): { scope: IpScope | undefined; alongside: boolean } {
    const handler = context.getHandler();
    let route = this.routes.get(handler);
    if (!route) {
      const targets = [handler, context.getClass()];
      route = { scope: this.reflector.getAllAndOverride<IpScope | undefined>(PER_IP_LIMIT, targets), alongside: this.reflector.getAllAndOverride<boolean>(CHECK_ALONGSIDE, targets) === true };
      this.routes.set(handler, route);
    }
    return route;
  }

  private ipLimit(scope: IpScope): number {
    if (scope === 'admin') return this.config.ADMIN_RATE_LIMIT_PER_MINUTE;
    if (scope === 'public') return this.config.PUBLIC_RATE_LIMIT_PER_MINUTE;
    return this.config.LOGIN_RATE_LIMIT_PER_MINUTE;
  }

  /** Counts the request; resolves when it may pass (or the limiter failed open), rejects with the 429. */
  private async decide(bucket: string, limit: number, res: Response): Promise<void> {
    let result: RateLimitResult;
    try {
      result = await withTimeout(this.limiter.consume(bucket, limit), REDIS_TIMEOUT_MS);
    } catch (err) {
      this.warnFailOpen(err);
      return;
    }
    this.exhausted.record(bucket, result.allowed, result.remaining);
    res.setHeader('RateLimit-Limit', String(result.limit));
    res.setHeader('RateLimit-Remaining', String(result.remaining));
    res.setHeader('RateLimit-Reset', String(result.resetSeconds));
    if (!result.allowed) {
      const retryAfter = result.retryAfterSeconds ?? result.resetSeconds;
      throw new AppError('RESOURCE_003', `rate limit of ${limit} requests per minute exceeded; retry in ${retryAfter} s`, {
        'Retry-After': String(retryAfter),
      });
    }
  }

  private warnFailOpen(err: unknown): void {
    this.failedOpenSinceWarning++;
    const now = Date.now();
    if (now - this.lastWarningAt < WARN_INTERVAL_MS) return;
    const message = err instanceof Error ? err.message : String(err);
    this.logger.warn(`rate limit unavailable, ${this.failedOpenSinceWarning} request(s) let through unlimited: ${message}`);
    this.lastWarningAt = now;
    this.failedOpenSinceWarning = 0;
  }
}

// Limits are per API key; a caller authenticated some other way (no key) is limited per account
// rather than not at all. Key ids are UUIDs, so the two kinds of bucket cannot collide.
function bucketOf(caller: Caller): string {
  return caller.keyId ?? `account:${caller.account.id}`;
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer from Redis within ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}
