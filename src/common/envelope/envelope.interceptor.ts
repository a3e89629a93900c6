import { CallHandler, ExecutionContext, Injectable, NestInterceptor } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Request } from 'express';
import { map, Observable } from 'rxjs';
import { envelopeKindFor, RAW_RESPONSE } from './envelope-kind';
import { codeEnvelope, successEnvelope } from './envelopes';

/** Wraps every handler result in the envelope its path uses (interface.md, "Response envelopes"). */
@Injectable()
export class EnvelopeInterceptor implements NestInterceptor {
  /** Metadata is fixed once the app is built: read once per handler. */
  private readonly rawHandlers = new WeakMap<object, boolean>();

  constructor(private readonly reflector: Reflector) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    if (context.getType() !== 'http') return next.handle();
    const handler = context.getHandler();
    let raw = this.rawHandlers.get(handler);
    if (raw === undefined) {
      raw = this.reflector.getAllAndOverride<boolean>(RAW_RESPONSE, [handler, context.getClass()]) === true;
      this.rawHandlers.set(handler, raw);
    }
    if (raw) return next.handle();
    const req = context.switchToHttp().getRequest<Request>();
    const wrap = envelopeKindFor(req.path) === 'code' ? codeEnvelope : successEnvelope;
    return next.handle().pipe(map((data: unknown) => wrap(data ?? null)));
  }
}
