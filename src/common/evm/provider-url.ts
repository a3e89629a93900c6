/**
 * Provider URLs often carry the provider's API key in their path or query
 * (`https://mainnet.infura.io/v3/<key>`, `...?apikey=<key>`), sometimes in user info. What the
 * service shows of a provider (logs, answers, /health, /metrics) is its redacted form: scheme,
 * host and port, with the path and query replaced by `***` when they hold more than `/`
 * (docs/spec/extensions.md, "RPC providers").
 */
export function redactUrl(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return '***';
  }
  const origin = `${parsed.protocol}//${parsed.host}`;
  const rest = `${parsed.pathname}${parsed.search}${parsed.hash}`;
  return rest === '' || rest === '/' ? origin : `${origin}/***`;
}

const URL_IN_TEXT = /\b[a-z][a-z0-9+.-]*:\/\/[^\s"'<>`]+/gi;

/** Every URL in a piece of text (an error message, a log line) in its redacted form. */
export function redactUrls(text: string): string {
  return text.replace(URL_IN_TEXT, (match) => redactUrl(match));
}

/** Secret parts of the configured provider URLs, each with what replaces it; longest first. */
const secrets = new Map<string, string>();
let ordered: Array<[string, string]> = [];

/**
 * Remembers a configured provider URL so that `scrubProviderUrls` (the logger's last line of
 * defence) removes it, and its path and query on their own, from any text.
 */
export function registerProviderUrl(url: string): void {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return;
  }
  secrets.set(url, redactUrl(url));
  const rest = `${parsed.pathname}${parsed.search}`;
  if (rest.length > 1) secrets.set(rest, '/***');
  if (parsed.username || parsed.password) secrets.set(`${parsed.username}${parsed.password ? `:${parsed.password}` : ''}@`, '');
  // The whole URL is replaced before its path alone.
  ordered = [...secrets].sort((a, b) => b[0].length - a[0].length);
}

/** The text with every registered provider URL (and its secret parts) replaced. */
export function scrubProviderUrls(text: string): string {
  let out = text;
  for (const [secret, replacement] of ordered) {
    if (out.includes(secret)) out = out.split(secret).join(replacement);
  }
  return out;
}
