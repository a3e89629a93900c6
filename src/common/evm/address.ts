import { getAddress } from 'ethers';

/**
 * Addresses are case-insensitive at the API (interface.md), so a mixed-case address with a
 * wrong checksum is still the address its hex says. Returns the lowercase form, or null.
 */
export function normalizeAddress(input: unknown): string | null {
  if (typeof input !== 'string') return null;
  const lower = input.trim().toLowerCase();
  // 0x and 40 lowercase hex digits is exactly what ethers' isAddress accepts in lowercase; asking it
  // costs a keccak (the checksum) per address, four of them in every GET /quote.
  return /^0x[0-9a-f]{40}$/.test(lower) ? lower : null;
}

/** The EIP-55 form of an address accepted by normalizeAddress, whatever case it came in. */
export function checksumAddress(input: string): string {
  const address = normalizeAddress(input);
  if (!address) throw new TypeError(`not an address: ${input}`);
  return getAddress(address);
}
