import { CallHandler, ExecutionContext, Injectable, NestInterceptor } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Request } from 'express';
import { map, Observable } from 'rxjs';
import { envelopeKindFor, RAW_RESPONSE } from './envelope-kind';
import { codeEnvelope, successEnvelope } from './envelopes';

/** Wraps every handler result in the envelope its path uses (interface.md, "Response envelopes"). */
@Injectable()
export class EnvelopeInterceptor implements NestInterceptor {
  constructor(private readonly reflector: Reflector) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    if (context.getType() !== 'http') return next.handle();
    const raw = this.reflector.getAllAndOverride<boolean>(RAW_RESPONSE, [context.getHandler(), context.getClass()]);
    if (raw) return next.handle();
    const req = context.switchToHttp().getRequest<Request>();
    const wrap = envelopeKindFor(req.path) === 'code' ? codeEnvelope : successEnvelope;
    return next.handle().pipe(map((data: unknown) => wrap(data ?? null)));
  }
}
