import { applyDecorators, SetMetadata, UseGuards } from '@nestjs/common';
import { RateLimitGuard } from './rate-limit.guard';

/** Counts each request against the caller's per-key window (submit and quote endpoints). */
export const RateLimited = (): ClassDecorator & MethodDecorator => UseGuards(RateLimitGuard);

export const PER_IP_LIMIT = 'rate-limit:per-ip';

/**
 * For public routes (no caller to count against): one window per client IP, shared by every
 * route carrying the decorator, of LOGIN_RATE_LIMIT_PER_MINUTE requests.
 */
export const RateLimitedPerIp = (): ClassDecorator & MethodDecorator => applyDecorators(SetMetadata(PER_IP_LIMIT, true), UseGuards(RateLimitGuard));
