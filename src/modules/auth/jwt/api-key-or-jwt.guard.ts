import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { AuthenticatedRequest } from '../../../common/http/authenticated-request';
import { API_KEY_HEADER } from '../api-key.guard';
import { ApiKeyOrJwtAuthenticator } from './api-key-or-jwt.authenticator';
import { checkRequestPolicy } from '../request-policy';

const BEARER = /^Bearer\s+(\S+)\s*$/i;

/** Sets `req.caller` from the api-key header or an `Authorization: Bearer <JWT>`; apply with @ApiKeyOrJwt(). */
@Injectable()
export class ApiKeyOrJwtGuard implements CanActivate {
  constructor(private readonly authenticator: ApiKeyOrJwtAuthenticator) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const req = context.switchToHttp().getRequest<AuthenticatedRequest>();
    const apiKey = req.header(API_KEY_HEADER)?.trim() || undefined;
    // Another scheme (Basic, a bare token) is no credential of ours: AUTH_001, not AUTH_004.
    const bearerToken = BEARER.exec(req.header('authorization') ?? '')?.[1];
    const caller = await this.authenticator.authenticate({ apiKey, bearerToken });
    // The account's IP and Origin lists guard its API keys; a wallet-login session is the owner's own.
    if (caller.keyId) checkRequestPolicy(req, caller.account);
    req.caller = caller;
    return true;
  }
}
