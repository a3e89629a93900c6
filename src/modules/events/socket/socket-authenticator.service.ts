import { Injectable } from '@nestjs/common';
import type { IncomingHttpHeaders } from 'node:http';
import { AppError } from '../../../common/errors/app-error';
import { clientIp, trustedProxies } from '../../../common/net/client-ip';
import { AppConfig } from '../../../config/app-config';
import { ApiKeyOrJwtAuthenticator, checkConnectionPolicy, SessionTokens } from '../../auth';

/** Who a socket acts for; `expiresAt` (ms) ends a JWT session when its token expires. */
export interface SocketPrincipal {
  userId: string;
  expiresAt: number | null;
}

/** What a Socket.IO handshake carries that authentication needs (socket.handshake). */
export interface SocketHandshake {
  auth: Record<string, unknown>;
  /** The TCP peer's address. */
  address: string;
  headers: IncomingHttpHeaders;
}

/**
 * The handshake's `auth: {apiKey}` or `auth: {token}`, checked by the same rules as the HTTP
 * API's api-key-or-JWT routes (one authenticator for both), then the account's ipWhitelist and
 * domainWhitelist with the handshake's address and Origin, as for an HTTP request.
 */
@Injectable()
export class SocketAuthenticator {
  private readonly proxies: ((ip: string) => boolean) | null;

  constructor(
    private readonly credentials: ApiKeyOrJwtAuthenticator,
    private readonly tokens: SessionTokens,
    config: AppConfig,
  ) {
    this.proxies = trustedProxies(config.TRUST_PROXY);
  }

  async authenticate({ auth, address, headers }: SocketHandshake): Promise<SocketPrincipal> {
    const apiKey = typeof auth.apiKey === 'string' && auth.apiKey.trim() !== '' ? auth.apiKey.trim() : undefined;
    const token = typeof auth.token === 'string' && auth.token.trim() !== '' ? auth.token.trim() : undefined;
    if (!apiKey && !token) throw new AppError('AUTH_001', 'handshake auth needs apiKey or token');
    const caller = await this.credentials.authenticate({ apiKey, bearerToken: token });
    const origin = Array.isArray(headers.origin) ? headers.origin[0] : headers.origin;
    checkConnectionPolicy(caller.account, { ip: clientIp(address, headers['x-forwarded-for'], this.proxies), origin });
    const expiresAt = apiKey || !token ? null : (await this.tokens.verify(token)).exp * 1000;
    return { userId: caller.account.id, expiresAt };
  }
}
