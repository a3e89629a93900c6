/** The fields of an EIP-4361 (Sign-In with Ethereum) message this service fills in. */
export interface SiweFields {
  /** RFC 3986 authority asking for the signature, e.g. `api.example.com` or `localhost:3000`. */
  domain: string;
  /** EIP-55 checksummed address. */
  address: string;
  statement: string;
  uri: string;
  chainId: number;
  nonce: string;
  issuedAt: Date;
  expirationTime: Date;
}

/**
 * EIP-4361 text, line for line in the order the EIP's ABNF fixes, so wallets that understand
 * SIWE render it as a sign-in request (and check the domain) instead of opaque text.
 */
export function formatSiweMessage(f: SiweFields): string {
  return [
    `${f.domain} wants you to sign in with your Ethereum account:`,
    f.address,
    '',
    f.statement,
    '',
    `URI: ${f.uri}`,
    'Version: 1',
    `Chain ID: ${f.chainId}`,
    `Nonce: ${f.nonce}`,
    `Issued At: ${f.issuedAt.toISOString()}`,
    `Expiration Time: ${f.expirationTime.toISOString()}`,
  ].join('\n');
}

const DOMAIN_LINE = / wants you to sign in with your Ethereum account:$/;

/** The domain and URI a message of `formatSiweMessage` names; null for text of another shape. */
export function siweOriginOf(message: string): { domain: string; uri: string } | null {
  const lines = message.split('\n');
  const uriLine = lines.find((line) => line.startsWith('URI: '));
  if (!DOMAIN_LINE.test(lines[0] ?? '') || uriLine === undefined) return null;
  return { domain: lines[0].replace(DOMAIN_LINE, ''), uri: uriLine.slice('URI: '.length) };
}
