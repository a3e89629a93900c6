/** What other modules may use of auth. */
export { ApiKeyOrJwt } from './jwt/api-key-or-jwt.decorator';
export { ApiKeyOrJwtAuthenticator } from './jwt/api-key-or-jwt.authenticator';
export { SessionTokens } from './jwt/session-tokens.service';
export { checkConnectionPolicy } from './request-policy';
export type { ConnectionOrigin } from './request-policy';
