import { Global, Module } from '@nestjs/common';
import { IdempotencyKeyStore } from './idempotency-key.store';
import { IdempotencyInterceptor } from './idempotency.interceptor';
import { IdempotencyService } from './idempotency.service';

/** Global so any controller can put `@Idempotent()` on a route without importing it. */
@Global()
@Module({
  providers: [IdempotencyKeyStore, IdempotencyService, IdempotencyInterceptor],
  exports: [IdempotencyService, IdempotencyInterceptor],
})
export class IdempotencyModule {}
