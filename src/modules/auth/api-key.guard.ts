import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { AppError } from '../../common/errors/app-error';
import { AuthenticatedRequest } from '../../common/http/authenticated-request';
import { IS_PUBLIC } from '../../common/http/public.decorator';
import { ApiKeysService } from '../accounts';
import { checkRequestPolicy } from './request-policy';

export const API_KEY_HEADER = 'api-key';

/** Global guard: every route needs a valid api-key header unless marked @Public(); the account's IP and Origin lists apply (AUTH_003). */
@Injectable()
export class ApiKeyGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly apiKeys: ApiKeysService,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    if (context.getType() !== 'http') return true;
    if (this.reflector.getAllAndOverride<boolean>(IS_PUBLIC, [context.getHandler(), context.getClass()])) return true;
    const req = context.switchToHttp().getRequest<AuthenticatedRequest>();
    const key = req.header(API_KEY_HEADER);
    if (key === undefined || key.trim() === '') throw new AppError('AUTH_001', `missing ${API_KEY_HEADER} header`);
    const { account, keyId, rateLimitPerMinute } = await this.apiKeys.authenticate(key.trim());
    checkRequestPolicy(req, account);
    req.caller = { account, keyId, rateLimitPerMinute };
    return true;
  }
}
