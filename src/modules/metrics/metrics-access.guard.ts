import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import type { Request } from 'express';
import { timingSafeEqual } from 'node:crypto';
import { AppError } from '../../common/errors/app-error';
import { AppConfig } from '../../config/app-config';

/**
 * GET /metrics on the API port: its labels name relayer keys (addresses) and it shows the
 * service's load, so it is answered to `Bearer METRICS_TOKEN` or `Bearer ADMIN_TOKEN` (the
 * dashboard's operator charts). It is open only where nothing else was chosen and the service
 * is not in production (local stack, tests); the internal METRICS_PORT needs no token.
 */
@Injectable()
export class MetricsAccessGuard implements CanActivate {
  constructor(private readonly config: AppConfig) {}

  canActivate(context: ExecutionContext): boolean {
    const header = context.switchToHttp().getRequest<Request>().header('authorization') ?? '';
    const given = /^Bearer\s+(.+)$/i.exec(header.trim())?.[1];
    if (given !== undefined && [this.config.METRICS_TOKEN, this.config.ADMIN_TOKEN].some((token) => token !== undefined && sameSecret(given, token))) return true;
    if (metricsOpenOnApiPort(this.config)) return true;
    throw new AppError('AUTH_001', given === undefined ? 'GET /metrics needs a bearer token (METRICS_TOKEN or the admin token)' : 'invalid metrics token');
  }
}

/** Open without a token: no METRICS_TOKEN, no METRICS_PORT, and not production. */
export function metricsOpenOnApiPort(config: Pick<AppConfig, 'METRICS_TOKEN' | 'METRICS_PORT' | 'NODE_ENV'>): boolean {
  return config.METRICS_TOKEN === undefined && config.METRICS_PORT === undefined && config.NODE_ENV !== 'production';
}

function sameSecret(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}
