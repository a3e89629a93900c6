import { applyDecorators, SetMetadata, UseGuards, UseInterceptors } from '@nestjs/common';
import { RateLimitGuard } from './rate-limit.guard';
import { PendingRateLimitInterceptor } from './pending-rate-limit.interceptor';

export const PER_IP_LIMIT = 'rate-limit:per-ip';
export const CHECK_ALONGSIDE = 'rate-limit:alongside';

export interface RateLimitedOptions {
  /**
   * Run the handler while Redis counts the request instead of after, so the round trip overlaps
   * the handler's own work; a denied request still gets its 429 and never the handler's answer.
   * Only for handlers whose side effects are harmless when the request turns out to be denied
   * (GET /quote stores quotes nobody will see, which then expire; GET /tx only reads). Keys
   * this instance last saw at or over their limit are checked before the handler, so an
   * over-limit client costs no handler work.
   */
  checkAlongside?: boolean;
}

/** Counts each request against the caller's per-key window (submit and quote endpoints). */
export const RateLimited = (options: RateLimitedOptions = {}): ClassDecorator & MethodDecorator =>
  options.checkAlongside
    ? applyDecorators(SetMetadata(CHECK_ALONGSIDE, true), UseGuards(RateLimitGuard), UseInterceptors(PendingRateLimitInterceptor))
    : UseGuards(RateLimitGuard);

/**
 * Which per-IP window a route counts against: `login` (wallet login, LOGIN_RATE_LIMIT_PER_MINUTE),
 * `public` (unauthenticated reads, PUBLIC_RATE_LIMIT_PER_MINUTE), `admin` (/admin/*, before the
 * admin token is checked, ADMIN_RATE_LIMIT_PER_MINUTE).
 */
export type IpScope = 'login' | 'public' | 'admin';

/**
 * For routes without a caller to count against: one window per client IP and scope, shared by
 * every route of the scope. Applied before any guard listed after it, so an admin token or a
 * login signature is only checked for requests within the limit.
 */
export const RateLimitedPerIp = (scope: IpScope = 'login', options: RateLimitedOptions = {}): ClassDecorator & MethodDecorator =>
  options.checkAlongside
    ? applyDecorators(SetMetadata(PER_IP_LIMIT, scope), SetMetadata(CHECK_ALONGSIDE, true), UseGuards(RateLimitGuard), UseInterceptors(PendingRateLimitInterceptor))
    : applyDecorators(SetMetadata(PER_IP_LIMIT, scope), UseGuards(RateLimitGuard));

/** Marks a route as deliberately not rate limited; the route inventory spec requires a reason. */
export const RATE_LIMIT_EXEMPT = 'rate-limit:exempt';
export const NotRateLimited = (reason: string): ClassDecorator & MethodDecorator => SetMetadata(RATE_LIMIT_EXEMPT, reason);
