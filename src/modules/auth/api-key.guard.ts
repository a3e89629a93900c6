import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { AppError } from '../../common/errors/app-error';
import { AuthenticatedRequest } from '../../common/http/authenticated-request';
import { IDENTIFIES_CALLER, IS_PUBLIC } from '../../common/http/public.decorator';
import { ApiKeysService } from '../accounts';
import { API_KEY_HEADER } from './api-key-header';
import { ApiKeyOrJwtAuthenticator } from './jwt/api-key-or-jwt.authenticator';
import { presentedCredentials } from './jwt/api-key-or-jwt.guard';
import { checkRequestPolicy } from './request-policy';

/**
 * Global guard: every route needs a valid api-key header unless marked @Public(); the account's
 * IP and Origin lists apply (AUTH_003). A @PublicIdentified() route learns who is calling when
 * the credentials pass, and is answered anonymously when they do not.
 */
@Injectable()
export class ApiKeyGuard implements CanActivate {
  private readonly access = new WeakMap<object, 'key' | 'public' | 'identified'>();

  constructor(
    private readonly reflector: Reflector,
    private readonly apiKeys: ApiKeysService,
    private readonly credentials: ApiKeyOrJwtAuthenticator,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    if (context.getType() !== 'http') return true;
    const req = context.switchToHttp().getRequest<AuthenticatedRequest>();
    const access = this.accessOf(context);
    if (access !== 'key') {
      if (access === 'identified') await this.identify(req);
      return true;
    }
    const key = req.header(API_KEY_HEADER);
    if (key === undefined || key.trim() === '') throw new AppError('AUTH_001', `missing ${API_KEY_HEADER} header`);
    const { account, keyId, rateLimitPerMinute } = await this.apiKeys.authenticate(key.trim());
    checkRequestPolicy(req, account);
    req.caller = { account, keyId, rateLimitPerMinute };
    return true;
  }

  /** What the route asks of its caller, read once per handler (metadata is fixed once the app is built). */
  private accessOf(context: ExecutionContext): 'key' | 'public' | 'identified' {
    const handler = context.getHandler();
    let access = this.access.get(handler);
    if (!access) {
      const targets = [handler, context.getClass()];
      access = !this.reflector.getAllAndOverride<boolean>(IS_PUBLIC, targets) ? 'key' : this.reflector.getAllAndOverride<boolean>(IDENTIFIES_CALLER, targets) ? 'identified' : 'public';
      this.access.set(handler, access);
    }
    return access;
  }

  /** A credential refusal (4xx) leaves the request anonymous; a failure to check (5xx) is the request's failure. */
  private async identify(req: AuthenticatedRequest): Promise<void> {
    const presented = presentedCredentials(req);
    if (!presented.apiKey && !presented.bearerToken) return;
    try {
      const caller = await this.credentials.authenticate(presented);
      checkRequestPolicy(req, caller.account);
      req.caller = caller;
    } catch (err) {
      if (!(err instanceof AppError) || err.status >= 500) throw err;
    }
  }
}
