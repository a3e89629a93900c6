import { CallHandler, ExecutionContext, Injectable, NestInterceptor } from '@nestjs/common';
import type { Request, Response } from 'express';
import { defer, Observable } from 'rxjs';
import { lastValueFrom } from 'rxjs';
import { AdminAuditLog, outcomeOf, tokenFingerprint } from './admin-audit-log.service';

const READS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Part of @AdminApi(): every mutating admin request is in the audit log before its handler (and
 * its validation) runs, and its outcome is recorded before the answer leaves. Runs after the
 * admin guard, so the caller is the admin token's holder; refused tokens never get here (the
 * access log and the per-IP limit cover them).
 */
@Injectable()
export class AdminAuditInterceptor implements NestInterceptor {
  constructor(private readonly log: AdminAuditLog) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    if (context.getType() !== 'http') return next.handle();
    const req = context.switchToHttp().getRequest<Request>();
    if (READS.has(req.method)) return next.handle();
    const res = context.switchToHttp().getResponse<Response>();
    return defer(async () => {
      const id = await this.log.start({
        actor: actorOf(req),
        source: 'rest',
        action: `${req.method} ${routeOf(req)}`,
        target: targetOf(req),
        body: req.body,
        ip: req.ip ?? req.socket?.remoteAddress ?? null,
      });
      try {
        const result = await lastValueFrom(next.handle(), { defaultValue: undefined });
        // Nest set the route's status before the interceptors ran; a handler may have changed it.
        await this.log.finish(id, res.statusCode);
        return result;
      } catch (err) {
        const { status, errorCode } = outcomeOf(err);
        await this.log.finish(id, status, errorCode);
        throw err;
      }
    });
  }
}

function actorOf(req: Request): string {
  const match = /^Bearer\s+(.+)$/i.exec((req.header('authorization') ?? '').trim());
  return match ? `admin:${tokenFingerprint(match[1])}` : 'admin:unknown';
}

/** The route's pattern (`/admin/accounts/:address/limits`), not the raw path: the target has its own column. */
function routeOf(req: Request): string {
  const route = (req.route as { path?: string } | undefined)?.path;
  return typeof route === 'string' ? `${req.baseUrl ?? ''}${route}` : req.path;
}

/** The route's parameters (address, key id, delivery id), else the body's address; a key revocation names its key by prefix. */
function targetOf(req: Request): string | null {
  const params = Object.values(req.params ?? {}).filter((v): v is string => typeof v === 'string' && v !== '');
  if (params.length > 0) return params.join(' ').slice(0, 200);
  const body = (req.body ?? {}) as { key?: unknown; address?: unknown };
  if (typeof body.address === 'string') return body.address.slice(0, 200);
  return typeof body.key === 'string' ? `key ${body.key.slice(0, 10)}…` : null;
}
