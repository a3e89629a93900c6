import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import type { Request } from 'express';
import { timingSafeEqual } from 'node:crypto';
import { AppError } from '../../../common/errors/app-error';
import { AppConfig } from '../../../config/app-config';

/** Bearer ADMIN_TOKEN for /admin/*; with no token configured the admin API does not exist (404). */
@Injectable()
export class AdminGuard implements CanActivate {
  constructor(private readonly config: AppConfig) {}

  canActivate(context: ExecutionContext): boolean {
    const expected = this.config.ADMIN_TOKEN;
    if (!expected) throw new AppError('RESOURCE_001', 'admin API is disabled');
    const header = context.switchToHttp().getRequest<Request>().header('authorization') ?? '';
    const match = /^Bearer\s+(.+)$/i.exec(header.trim());
    if (!match) throw new AppError('AUTH_001', 'missing admin bearer token');
    const given = Buffer.from(match[1]);
    const wanted = Buffer.from(expected);
    if (given.length !== wanted.length || !timingSafeEqual(given, wanted)) throw new AppError('AUTH_001', 'invalid admin token');
    return true;
  }
}
