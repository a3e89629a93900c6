/** Where the login message says the sign-in request comes from (EIP-4361 domain and URI). */
export interface LoginOrigin {
  domain: string;
  uri: string;
}

/**
 * The configured PUBLIC_ORIGIN, never the request's Host header: a phishing site that proxies
 * POST /api/auth/message would otherwise get messages naming itself, which wallets show as
 * legitimate on that site.
 */
export function loginOriginOf(publicOrigin: string): LoginOrigin {
  const url = new URL(publicOrigin);
  return { domain: url.host, uri: url.origin };
}
