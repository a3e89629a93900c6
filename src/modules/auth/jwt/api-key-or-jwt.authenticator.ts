import { Injectable } from '@nestjs/common';
import { AppError } from '../../../common/errors/app-error';
import { Caller } from '../../../common/http/authenticated-request';
import { AccountsService } from '../../accounts';
import { ApiKeysService } from '../../accounts';
import { SessionTokens } from './session-tokens.service';

export interface PresentedCredentials {
  apiKey?: string;
  bearerToken?: string;
}

/**
 * The credential rules of interface.md (Authentication 3) apart from HTTP: an api-key, when
 * present, decides alone (a bad key is AUTH_002 even next to a good token), otherwise the JWT.
 */
@Injectable()
export class ApiKeyOrJwtAuthenticator {
  constructor(
    private readonly apiKeys: ApiKeysService,
    private readonly accounts: AccountsService,
    private readonly tokens: SessionTokens,
  ) {}

  async authenticate({ apiKey, bearerToken }: PresentedCredentials): Promise<Caller> {
    if (apiKey) {
      const { account, keyId, rateLimitPerMinute } = await this.apiKeys.authenticate(apiKey);
      return { account, keyId, rateLimitPerMinute };
    }
    if (bearerToken) return { account: await this.accountOf(bearerToken) };
    throw new AppError('AUTH_001', 'missing api-key header or Authorization: Bearer token');
  }

  /** A token outlives nothing it was issued for: a disabled or deleted account makes it invalid. */
  private async accountOf(token: string): Promise<Caller['account']> {
    const claims = await this.tokens.verify(token);
    const account = await this.accounts.getById(claims.sub).catch((err: unknown) => {
      throw err instanceof AppError ? new AppError('AUTH_004', 'account no longer exists') : err;
    });
    if (account.disabled) throw new AppError('AUTH_004', 'account disabled');
    if (account.address !== claims.address) throw new AppError('AUTH_004');
    return account;
  }
}
