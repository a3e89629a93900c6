import { Injectable } from '@nestjs/common';
import { AppError } from '../../../common/errors/app-error';
import { ApiKeyOrJwtAuthenticator } from '../../auth';
import { SessionTokens } from '../../auth';

/** Who a socket acts for; `expiresAt` (ms) ends a JWT session when its token expires. */
export interface SocketPrincipal {
  userId: string;
  expiresAt: number | null;
}

/**
 * The handshake's `auth: {apiKey}` or `auth: {token}`, checked by the same rules as the HTTP
 * API's api-key-or-JWT routes (one authenticator for both).
 */
@Injectable()
export class SocketAuthenticator {
  constructor(
    private readonly credentials: ApiKeyOrJwtAuthenticator,
    private readonly tokens: SessionTokens,
  ) {}

  async authenticate(auth: Record<string, unknown>): Promise<SocketPrincipal> {
    const apiKey = typeof auth.apiKey === 'string' && auth.apiKey.trim() !== '' ? auth.apiKey.trim() : undefined;
    const token = typeof auth.token === 'string' && auth.token.trim() !== '' ? auth.token.trim() : undefined;
    if (!apiKey && !token) throw new AppError('AUTH_001', 'handshake auth needs apiKey or token');
    const caller = await this.credentials.authenticate({ apiKey, bearerToken: token });
    const expiresAt = apiKey || !token ? null : (await this.tokens.verify(token)).exp * 1000;
    return { userId: caller.account.id, expiresAt };
  }
}
