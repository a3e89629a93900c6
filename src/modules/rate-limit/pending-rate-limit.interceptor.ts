import { CallHandler, ExecutionContext, Injectable, NestInterceptor } from '@nestjs/common';
import type { Request } from 'express';
import { defer, lastValueFrom, Observable } from 'rxjs';
import { pendingDecision } from './pending-rate-limit';

/**
 * Pairs with @RateLimited({ checkAlongside: true }): starts the handler (pipes included) at once
 * and answers only when the guard's pending decision is in. A denial wins over whatever the
 * handler produced, as it would have had the guard waited (a 429 before a 400).
 */
@Injectable()
export class PendingRateLimitInterceptor implements NestInterceptor {
  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    if (context.getType() !== 'http') return next.handle();
    const decision = pendingDecision(context.switchToHttp().getRequest<Request>());
    if (!decision) return next.handle();
    return defer(async () => {
      const [verdict, outcome] = await Promise.allSettled([decision, lastValueFrom(next.handle(), { defaultValue: undefined })]);
      if (verdict.status === 'rejected') throw verdict.reason;
      if (outcome.status === 'rejected') throw outcome.reason;
      return outcome.value;
    });
  }
}
