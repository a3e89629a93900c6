/** Idempotency-Key for POST routes that create something: `@Idempotent()` and its module. */
export { Idempotent } from './idempotent.decorator';
export type { IdempotentRefresh } from './idempotency.interceptor';
export type { StoredAnswer } from './idempotency.service';
export { IdempotencyModule } from './idempotency.module';
export { keepIdempotencyClaim } from './idempotency-scope';
