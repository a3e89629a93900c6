import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { AuthenticatedRequest } from '../../../common/http/authenticated-request';
import { API_KEY_HEADER } from '../api-key-header';
import { ApiKeyOrJwtAuthenticator, PresentedCredentials } from './api-key-or-jwt.authenticator';
import { checkRequestPolicy } from '../request-policy';

const BEARER = /^Bearer\s+(\S+)\s*$/i;

/** The api-key header and the `Authorization: Bearer` token of a request; another scheme (Basic, a bare token) is no credential of ours. */
export function presentedCredentials(req: AuthenticatedRequest): PresentedCredentials {
  return { apiKey: req.header(API_KEY_HEADER)?.trim() || undefined, bearerToken: BEARER.exec(req.header('authorization') ?? '')?.[1] };
}

/** Sets `req.caller` from the api-key header or an `Authorization: Bearer <JWT>`; apply with @ApiKeyOrJwt(). */
@Injectable()
export class ApiKeyOrJwtGuard implements CanActivate {
  constructor(private readonly authenticator: ApiKeyOrJwtAuthenticator) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const req = context.switchToHttp().getRequest<AuthenticatedRequest>();
    // Neither sent: AUTH_001, also for another Authorization scheme (not AUTH_004).
    const caller = await this.authenticator.authenticate(presentedCredentials(req));
    // The account's IP and Origin lists guard every credential of it: a wallet-login session
    // from outside them is as refused as an API key (a phished or leaked token stays fenced in).
    checkRequestPolicy(req, caller.account);
    req.caller = caller;
    return true;
  }
}
