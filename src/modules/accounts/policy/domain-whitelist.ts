const LABEL = '(?!-)[a-z0-9-]{1,63}(?<!-)';
const HOST = new RegExp(`^(\\*\\.)?${LABEL}(\\.${LABEL})*$`);

/** A host name (`app.example.com`, `localhost`) or a wildcard of its subdomains (`*.example.com`); lowercase. */
export function isDomainEntry(entry: string): boolean {
  return entry.length <= 253 && HOST.test(entry) && entry !== '*';
}

/** The host of an `Origin` header value (`https://app.example.com:8443` → `app.example.com`), or null (`null`, garbage). */
export function originHost(origin: string): string | null {
  try {
    const url = new URL(origin);
    return url.hostname ? url.hostname.toLowerCase().replace(/^\[|\]$/g, '') : null;
  } catch {
    return null;
  }
}

/**
 * True when the host is on the list: an exact name, or a `*.example.com` entry for any of its
 * subdomains (not example.com itself, as in TLS certificates, so the apex is listed explicitly).
 */
export function domainAllowed(entries: readonly string[], host: string): boolean {
  return entries.some((entry) => (entry.startsWith('*.') ? host.endsWith(entry.slice(1)) && host.length > entry.length - 1 : host === entry));
}
