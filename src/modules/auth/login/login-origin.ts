import type { Request } from 'express';

/** Where the login message says the sign-in request comes from (EIP-4361 domain and URI). */
export interface LoginOrigin {
  domain: string;
  uri: string;
}

// host[:port] or [ipv6][:port]; anything else in a Host header is not put into a message users sign.
const AUTHORITY = /^(?:[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*|\[[0-9A-Fa-f:.]+\])(?::\d{1,5})?$/;
const FALLBACK_DOMAIN = 'localhost';

/** The API's own host as the client addressed it, which is what a same-origin wallet compares against. */
export function loginOriginOf(req: Request): LoginOrigin {
  const host = req.get('host')?.trim() ?? '';
  const domain = AUTHORITY.test(host) ? host : FALLBACK_DOMAIN;
  return { domain, uri: `${req.protocol}://${domain}` };
}
