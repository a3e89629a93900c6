import { Global, Module } from '@nestjs/common';
import { JwtModule } from '@nestjs/jwt';
import { AccountsModule } from '../../accounts';
import { ApiKeyOrJwtAuthenticator } from './api-key-or-jwt.authenticator';
import { SessionTokens } from './session-tokens.service';

/**
 * Global because @ApiKeyOrJwt() puts ApiKeyOrJwtGuard on controllers of other modules, and a
 * guard resolves its dependencies in the module of the controller it guards.
 */
@Global()
@Module({
  // No module-level secret: SessionTokens passes JWT_SECRET on each call.
  imports: [JwtModule.register({}), AccountsModule],
  providers: [SessionTokens, ApiKeyOrJwtAuthenticator],
  exports: [SessionTokens, ApiKeyOrJwtAuthenticator],
})
export class JwtAuthModule {}
