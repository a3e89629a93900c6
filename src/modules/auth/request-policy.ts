import type { Request } from 'express';
import { AppError } from '../../common/errors/app-error';
import { ipMatcher } from '../../common/net/ip-list';
import { type Account, domainAllowed, originHost } from '../accounts';

/** One matcher per list: a cached account keeps its arrays, so a busy key builds it once. */
const matchers = new WeakMap<readonly string[], (ip: string) => boolean>();

function ipAllowed(list: readonly string[], ip: string): boolean {
  let match = matchers.get(list);
  if (!match) {
    match = ipMatcher(list);
    matchers.set(list, match);
  }
  return match(ip);
}

/** Where a request or a socket comes from, as the account's lists see it. */
export interface ConnectionOrigin {
  /** Client IP: the socket's address, or the X-Forwarded-For hop of a proxy TRUST_PROXY names. */
  ip: string;
  /** The `Origin` header, when the client sent one. */
  origin?: string;
}

/**
 * The account's ipWhitelist and domainWhitelist (extensions.md, "Account policy"), for every
 * credential of the account (API key or wallet-login JWT) and every transport (HTTP, Socket.IO).
 */
export function checkConnectionPolicy(account: Account, { ip, origin }: ConnectionOrigin): void {
  if (account.ipWhitelist.length > 0 && !ipAllowed(account.ipWhitelist, ip)) throw new AppError('AUTH_003', `client IP ${ip} is not in the account's ipWhitelist`);
  if (origin !== undefined && account.domainWhitelist.length > 0) {
    const host = originHost(origin);
    if (host === null || !domainAllowed(account.domainWhitelist, host)) throw new AppError('AUTH_003', `Origin ${origin.slice(0, 200)} is not in the account's domainWhitelist`);
  }
}

/** The client IP is `req.ip`: the socket's address, or the X-Forwarded-For hop Express derives when TRUST_PROXY names the proxies. */
export function checkRequestPolicy(req: Request, account: Account): void {
  checkConnectionPolicy(account, { ip: req.ip ?? req.socket.remoteAddress ?? '', origin: req.header('origin') });
}
