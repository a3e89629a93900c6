/** What other modules may use of rate-limit. */
export { RateLimitModule } from './rate-limit.module';
export { RateLimited } from './rate-limited.decorator';
export { NotRateLimited, RateLimitedPerIp, RATE_LIMIT_EXEMPT } from './rate-limited.decorator';
export type { IpScope } from './rate-limited.decorator';
export { RateLimitGuard } from './rate-limit.guard';
