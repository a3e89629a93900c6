/** Claims of a wallet-login JWT (decisions.md: `sub` is the userId; times in Unix seconds). */
export interface SessionClaims {
  sub: string;
  /** Lowercase wallet address of the account, as in account responses. */
  address: string;
  iat: number;
  exp: number;
}
