/**
 * Canonical JSON of an exchange action: the exact bytes a signature commits to, so signer, relay and
 * exchange must all produce the same string from the same value whatever language they are written in.
 *
 * - object keys sorted by UTF-16 code units (JavaScript's default sort), recursively; no whitespace;
 * - strings escaped as JSON.stringify escapes them;
 * - numbers must be safe integers: float formatting differs between languages (1.0, 1e21, 0.1+0.2),
 *   so decimal quantities such as prices travel as strings, as Hyperliquid does;
 * - only plain JSON values: null, booleans, strings, safe integers, arrays and plain objects.
 */

/** Deep enough for any real action, shallow enough that recursion can never exhaust the stack. */
export const MAX_JSON_DEPTH = 32;

export class NotCanonicalJsonError extends Error {}

/** Throws NotCanonicalJsonError, naming the offending path from `root`, when the value has no canonical form. */
export function canonicalJson(value: unknown, root = '$'): string {
  return encode(value, 0, root);
}

function encode(value: unknown, depth: number, path: string): string {
  if (depth > MAX_JSON_DEPTH) throw new NotCanonicalJsonError(`${path}: nested deeper than ${MAX_JSON_DEPTH} levels`);
  if (value === null || typeof value === 'boolean' || typeof value === 'string') return JSON.stringify(value);
  if (typeof value === 'number') {
    if (!Number.isSafeInteger(value)) throw new NotCanonicalJsonError(`${path}: numbers must be safe integers (send decimals as strings)`);
    // JSON.stringify(-0) is "0", which is what every other encoder writes too.
    return JSON.stringify(value);
  }
  if (Array.isArray(value)) {
    // Array.from turns holes of a sparse array into undefined, which is then rejected rather than dropped.
    return `[${Array.from(value, (item: unknown, i) => encode(item, depth + 1, `${path}[${i}]`)).join(',')}]`;
  }
  if (isPlainObject(value)) {
    const keys = Object.keys(value).sort();
    return `{${keys.map((key) => `${JSON.stringify(key)}:${encode(value[key], depth + 1, `${path}.${key}`)}`).join(',')}}`;
  }
  throw new NotCanonicalJsonError(`${path}: ${describe(value)} is not a JSON value`);
}

/** Class instances (Date, Map, BigInt wrappers) would serialize differently per encoder, so only literals pass. */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const proto: unknown = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

function describe(value: unknown): string {
  if (typeof value === 'object' && value !== null) return (value as object).constructor?.name ?? 'object';
  return typeof value;
}
