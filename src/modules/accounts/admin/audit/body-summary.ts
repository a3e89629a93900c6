/** Field names whose values are secrets wherever they appear in an admin request. */
const SECRET_FIELD = /secret|password|passphrase|token|authorization|mnemonic|private.?key/i;
/** Field names holding a plain API key: only its prefix (what `keys list` shows) is kept. */
const API_KEY_FIELD = /^(key|apiKey)$/;
const API_KEY_PREFIX_LENGTH = 10;
const MAX_STRING = 200;
const MAX_ITEMS = 50;
const MAX_DEPTH = 6;

/**
 * What an admin request asked for, without its secrets: secret-named fields become
 * "[redacted]", a plain API key its prefix, a URL loses its credentials and query, long
 * strings and lists are cut. Kept in the audit log, so it must never hold what would let its
 * reader act as the account or the operator.
 */
export function bodySummary(body: unknown): unknown {
  return summarize(body, 0);
}

function summarize(value: unknown, depth: number, field?: string): unknown {
  if (value === null || value === undefined) return value ?? null;
  if (field !== undefined && SECRET_FIELD.test(field)) return '[redacted]';
  if (typeof value === 'string') {
    if (field !== undefined && API_KEY_FIELD.test(field)) return `${value.slice(0, API_KEY_PREFIX_LENGTH)}…`;
    return storable(cut(withoutCredentials(value)));
  }
  if (typeof value === 'number' || typeof value === 'boolean') return value;
  if (depth >= MAX_DEPTH) return '[nested]';
  if (Array.isArray(value)) {
    const items = value.slice(0, MAX_ITEMS).map((item) => summarize(item, depth + 1));
    return value.length > MAX_ITEMS ? [...items, `[${value.length - MAX_ITEMS} more]`] : items;
  }
  if (typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value as Record<string, unknown>).slice(0, MAX_ITEMS)) out[storable(cut(key))] = summarize(item, depth + 1, key);
    return out;
  }
  return String(value);
}

/** A URL's user info and query can carry credentials (https://user:pass@host, ?token=...). */
function withoutCredentials(value: string): string {
  if (!/^[a-z][a-z0-9+.-]*:\/\//i.test(value)) return value;
  try {
    const url = new URL(value);
    if (!url.username && !url.password && !url.search) return value;
    url.username = '';
    url.password = '';
    if (url.search) url.search = '?[redacted]';
    return url.toString();
  } catch {
    return value;
  }
}

function cut(value: string): string {
  return value.length > MAX_STRING ? `${value.slice(0, MAX_STRING)}…` : value;
}

/** PostgreSQL takes no NUL in text, and jsonb no lone UTF-16 surrogate either: both become U+FFFD. */
export function storable(value: string): string {
  return value.replace(/\u0000|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, '\ufffd');
}
