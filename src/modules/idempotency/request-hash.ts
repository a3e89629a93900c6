import { createHash } from 'node:crypto';

/** JSON with object keys sorted at every level, so two encodings of the same body hash alike. */
export function canonicalBody(value: unknown): string {
  if (value === undefined) return 'null';
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map(canonicalBody).join(',')}]`;
  const record = value as Record<string, unknown>;
  const keys = Object.keys(record).filter((k) => record[k] !== undefined).sort();
  return `{${keys.map((k) => `${JSON.stringify(k)}:${canonicalBody(record[k])}`).join(',')}}`;
}

/** sha256 of method, path and canonical body: what "the same request" means for a key. */
export function requestHash(method: string, path: string, body: unknown): string {
  return createHash('sha256').update(`${method.toUpperCase()} ${path}\n${canonicalBody(body)}`).digest('hex');
}

/** 1-255 printable ASCII characters (space included), as the header's contract says. */
export function isValidIdempotencyKey(key: string): boolean {
  return key.length >= 1 && key.length <= 255 && /^[\x20-\x7e]+$/.test(key);
}
