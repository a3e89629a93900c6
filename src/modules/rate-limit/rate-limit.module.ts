import { Global, Module } from '@nestjs/common';
import { RateLimitGuard } from './rate-limit.guard';
import { RateLimitService } from './rate-limit.service';
import { PendingRateLimitInterceptor } from './pending-rate-limit.interceptor';

/**
 * Global because @RateLimited() goes on controllers of several feature modules, and Nest builds a
 * @UseGuards guard inside the controller's own module: its dependencies must be visible there.
 */
@Global()
@Module({
  providers: [RateLimitService, RateLimitGuard, PendingRateLimitInterceptor],
  exports: [RateLimitService, RateLimitGuard, PendingRateLimitInterceptor],
})
export class RateLimitModule {}
