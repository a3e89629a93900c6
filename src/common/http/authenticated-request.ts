import { createParamDecorator, ExecutionContext } from '@nestjs/common';
import type { Request } from 'express';
// The leaf file, not the module's index: the index reaches code that imports Caller.
import type { Account } from '../../modules/accounts/domain/account';

export interface Caller {
  account: Account;
  /** Set when the caller used an API key (rate limits are per key). */
  keyId?: string;
  rateLimitPerMinute?: number | null;
}

export type AuthenticatedRequest = Request & { caller?: Caller };

/** The account behind the request's credentials; only on guarded routes. */
export const CurrentCaller = createParamDecorator((_: unknown, ctx: ExecutionContext): Caller => {
  const caller = ctx.switchToHttp().getRequest<AuthenticatedRequest>().caller;
  if (!caller) throw new Error('CurrentCaller used on a route without authentication');
  return caller;
});
