import { Injectable } from '@nestjs/common';
import { JwtService, TokenExpiredError } from '@nestjs/jwt';
import { AppError } from '../../../common/errors/app-error';
import { normalizeAddress } from '../../../common/evm/address';
import { AppConfig } from '../../../config/app-config';
import { SessionClaims } from './session-claims';
import { isUuid } from '../../../common/ids/uuid';

/** Issues and checks wallet-login JWTs (HS256 with JWT_SECRET). */
@Injectable()
export class SessionTokens {
  constructor(
    private readonly jwt: JwtService,
    private readonly config: AppConfig,
  ) {}

  async issue(account: { id: string; address: string }): Promise<{ token: string; expiresAt: number }> {
    // iat/exp are set here rather than through `expiresIn` so the response's expiresAt is exactly the token's exp.
    const iat = Math.floor(Date.now() / 1000);
    const claims: SessionClaims = { sub: account.id, address: account.address, aud: this.config.JWT_AUDIENCE, iat, exp: iat + this.config.JWT_TTL_SECONDS };
    const token = await this.jwt.signAsync(claims, { secret: this.config.JWT_SECRET, algorithm: 'HS256' });
    return { token, expiresAt: claims.exp };
  }

  /** AUTH_005 for a genuine but expired token; AUTH_004 for anything else that is wrong with it (another or no `aud` included). */
  async verify(token: string): Promise<SessionClaims> {
    let claims: Partial<Record<keyof SessionClaims, unknown>>;
    try {
      // Pinned to HS256 so a token cannot pick another algorithm (or none).
      claims = await this.jwt.verifyAsync(token, { secret: this.config.JWT_SECRET, algorithms: ['HS256'], audience: this.config.JWT_AUDIENCE });
    } catch (err) {
      throw new AppError(err instanceof TokenExpiredError ? 'AUTH_005' : 'AUTH_004');
    }
    const { sub, address, aud, iat, exp } = claims;
    // A correctly signed token of another shape is still not one of ours; a non-uuid sub would
    // also reach PostgreSQL as a query error instead of a bad token. The audience is one string
    // (the library also accepts it inside an array).
    if (typeof sub !== 'string' || !isUuid(sub) || aud !== this.config.JWT_AUDIENCE || typeof iat !== 'number' || typeof exp !== 'number') throw new AppError('AUTH_004');
    const normalized = normalizeAddress(address);
    if (!normalized) throw new AppError('AUTH_004');
    return { sub, address: normalized, aud, iat, exp };
  }
}
