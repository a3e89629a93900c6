import { ipMatcher } from './ip-list';

/** Matches the proxies of TRUST_PROXY (comma-separated IPs or CIDR blocks); null when unset: no proxy is believed. */
export function trustedProxies(trustProxy: string | undefined): ((ip: string) => boolean) | null {
  const entries = (trustProxy ?? '').split(',').map((p) => p.trim()).filter(Boolean);
  return entries.length === 0 ? null : ipMatcher(entries);
}

/**
 * The client's address for a connection Express does not see (a Socket.IO handshake), derived
 * as Express derives `req.ip` (proxy-addr): from the socket's address leftwards through
 * X-Forwarded-For, for as long as each hop is a trusted proxy. Without trusted proxies the
 * header is ignored, so a client cannot name its own address.
 */
export function clientIp(remoteAddress: string, forwardedFor: string | string[] | undefined, trusted: ((ip: string) => boolean) | null): string {
  if (!trusted) return remoteAddress;
  const header = Array.isArray(forwardedFor) ? forwardedFor.join(',') : (forwardedFor ?? '');
  const hops = [remoteAddress, ...header.split(/[\s,]+/).filter(Boolean).reverse()];
  for (let i = 0; i < hops.length - 1; i++) if (!trusted(hops[i])) return hops[i];
  return hops[hops.length - 1];
}
