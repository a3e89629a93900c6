/** Claims of a wallet-login JWT (decisions.md: `sub` is the userId; times in Unix seconds). */
export interface SessionClaims {
  sub: string;
  /** Lowercase wallet address of the account, as in account responses. */
  address: string;
  /** JWT_AUDIENCE: a token signed with the same key for another audience is not a session here. */
  aud: string;
  iat: number;
  exp: number;
}
