import { LookupAddress } from 'node:dns';
import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { nonPublicReason } from './address-classifier';

/** A webhook target that must not be reached (at registration or delivery). */
export class NonPublicTargetError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'NonPublicTargetError';
  }
}

/**
 * Resolves a host and checks every address it resolves to: one private answer among public
 * ones is enough to refuse, since the connection could land on either. With `allowPrivate`
 * (local stacks and tests) the answers are returned unchecked.
 */
export async function resolvePublic(host: string, allowPrivate: boolean): Promise<LookupAddress[]> {
  const bare = host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host;
  let addresses: LookupAddress[];
  if (isIP(bare)) addresses = [{ address: bare, family: isIP(bare) }];
  else {
    try {
      addresses = await lookup(bare, { all: true, verbatim: true });
    } catch (err) {
      throw new NonPublicTargetError(`host ${bare} does not resolve (${(err as NodeJS.ErrnoException).code ?? 'lookup failed'})`);
    }
  }
  if (addresses.length === 0) throw new NonPublicTargetError(`host ${bare} does not resolve`);
  if (allowPrivate) return addresses;
  for (const { address } of addresses) {
    const reason = nonPublicReason(address);
    if (reason) throw new NonPublicTargetError(`host ${bare} resolves to a non-public address (${address}: ${reason})`);
  }
  return addresses;
}
