import { getAddress, isAddress } from 'ethers';

/**
 * Addresses are case-insensitive at the API (interface.md), so a mixed-case address with a
 * wrong checksum is still the address its hex says. Returns the lowercase form, or null.
 */
export function normalizeAddress(input: unknown): string | null {
  if (typeof input !== 'string') return null;
  const lower = input.trim().toLowerCase();
  return /^0x[0-9a-f]{40}$/.test(lower) && isAddress(lower) ? lower : null;
}

/** The EIP-55 form of an address accepted by normalizeAddress, whatever case it came in. */
export function checksumAddress(input: string): string {
  const address = normalizeAddress(input);
  if (!address) throw new TypeError(`not an address: ${input}`);
  return getAddress(address);
}
