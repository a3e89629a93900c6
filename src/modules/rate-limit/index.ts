/** What other modules may use of rate-limit. */
export { RateLimitModule } from './rate-limit.module';
export { RateLimited } from './rate-limited.decorator';
