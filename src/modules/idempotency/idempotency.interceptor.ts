import { CallHandler, ExecutionContext, Injectable, Logger, NestInterceptor, Type } from '@nestjs/common';
import { ModuleRef, Reflector } from '@nestjs/core';
import type { Response } from 'express';
import { defer, from, lastValueFrom, mergeMap, Observable, of } from 'rxjs';
import { AppError } from '../../common/errors/app-error';
import type { AuthenticatedRequest } from '../../common/http/authenticated-request';
import { IdempotencyScope, withIdempotencyScope } from './idempotency-scope';
import { IdempotencyService, StoredAnswer } from './idempotency.service';
import { isValidIdempotencyKey, requestHash } from './request-hash';

export const IDEMPOTENCY_HEADER = 'idempotency-key';
export const IDEMPOTENT_REFRESH = 'idempotency:refresh';

/**
 * Turns a stored answer into the one to send again, for routes whose answer is a live state
 * (submit-tx-sync answers the record as it is now). Provided by the route's module.
 */
export interface IdempotentRefresh {
  refresh(stored: StoredAnswer, body: unknown): Promise<StoredAnswer>;
}

/**
 * Runs a route under the Idempotency-Key protocol when the header is present. Runs after the
 * api-key guard (the key is per account) and before validation, so a request refused with a
 * 4xx gives its claim up instead of poisoning the key.
 */
@Injectable()
export class IdempotencyInterceptor implements NestInterceptor {
  private readonly logger = new Logger(IdempotencyInterceptor.name);

  constructor(
    private readonly keys: IdempotencyService,
    private readonly reflector: Reflector,
    private readonly moduleRef: ModuleRef,
  ) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const req = context.switchToHttp().getRequest<AuthenticatedRequest>();
    const res = context.switchToHttp().getResponse<Response>();
    const header = req.headers[IDEMPOTENCY_HEADER];
    if (header === undefined || !req.caller) return next.handle();
    return defer(async () => {
      const key = Array.isArray(header) ? header.join(', ') : header;
      if (!isValidIdempotencyKey(key)) throw new AppError('VALIDATION_001', 'Idempotency-Key must be 1-255 printable ASCII characters');
      const userId = req.caller!.account.id;
      const hash = requestHash(req.method, req.path, req.body);
      const stored = await this.keys.begin(userId, key, hash);
      if (stored) {
        const answer = await this.refreshed(context, stored, req.body);
        res.status(answer.status);
        return of(answer.response);
      }
      return from(this.run(next, res, userId, key, hash));
    }).pipe(mergeMap((answer) => answer));
  }

  private async run(next: CallHandler, res: Response, userId: string, key: string, hash: string): Promise<unknown> {
    let response: unknown;
    const scope: IdempotencyScope = { committed: undefined };
    try {
      response = await withIdempotencyScope(scope, () => lastValueFrom(next.handle(), { defaultValue: null }));
    } catch (err) {
      // Nothing was created (refusals happen before the submission's one statement): the key stays free.
      if (scope.committed === undefined) {
        await this.keys.release(userId, key, hash);
        throw err;
      }
      // The record was committed before the failure: the key stays taken, and a retry gets the committed answer.
      this.logger.warn(`request under Idempotency-Key failed after its record was committed; the key is kept: ${(err as Error).message}`);
      if (scope.committed) await this.keys.complete(userId, key, hash, scope.committed);
      throw err;
    }
    await this.keys.complete(userId, key, hash, { status: res.statusCode, response: JSON.parse(JSON.stringify(response ?? null)) as unknown });
    return response;
  }

  private async refreshed(context: ExecutionContext, stored: StoredAnswer, body: unknown): Promise<StoredAnswer> {
    const refresher = this.reflector.get<Type<IdempotentRefresh> | undefined>(IDEMPOTENT_REFRESH, context.getHandler());
    if (!refresher) return stored;
    return this.moduleRef.get(refresher, { strict: false }).refresh(stored, body);
  }
}
