/**
 * A chain's RPC providers as the chains file gives them (docs/spec/extensions.md, "RPC
 * providers"): `rpcUrl: X` or `rpcUrls: [X | {url, weight, maxRps, getLogsMaxRange, maxBatch}]`,
 * URLs with `${VAR}` placeholders filled from the environment at startup.
 */
export interface RpcEndpointDef {
  /** The full URL, secrets included: only the HTTP client sees it; everything shown uses `redactUrl`. */
  url: string;
  /** Share of reads this provider takes among the healthy ones (default 1). */
  weight: number;
  /** Client-side pacing: at most this many calls per second to this provider. */
  maxRps?: number;
  /** Most blocks per eth_getLogs call to this provider (the chain's `getLogsMaxRange`, else 2000). */
  getLogsMaxRange?: number;
  /** Most calls per JSON-RPC batch this provider takes (the relay sends single calls, so at least 1). */
  maxBatch?: number;
}

const PLACEHOLDER = /\$\{([A-Za-z_][A-Za-z0-9_]*)\}/g;
const URL_SHAPE = /^(https?|wss?):\/\/.+/;

/** The text with every `${VAR}` filled from `env`; a missing or empty variable is an error naming it. */
export function fillPlaceholders(text: string, env: NodeJS.ProcessEnv, where: string): string {
  return text.replace(PLACEHOLDER, (_match, name: string) => {
    const value = env[name];
    if (value === undefined || value === '') throw new Error(`${where}: environment variable ${name} is not set`);
    return value;
  });
}

/**
 * The providers of one raw chain entry, placeholders filled and fields checked; null when the
 * chain names none (an exchange-action chain). Errors name the chain and the field.
 */
export function endpointsOf(raw: Record<string, unknown>, env: NodeJS.ProcessEnv, where: string): RpcEndpointDef[] | null {
  const hasOne = raw.rpcUrl !== undefined;
  const hasMany = raw.rpcUrls !== undefined;
  if (hasOne && hasMany) throw new Error(`${where}: give rpcUrl or rpcUrls, not both`);
  if (!hasOne && !hasMany) return null;
  const list = hasOne ? [raw.rpcUrl] : raw.rpcUrls;
  if (!Array.isArray(list) || list.length === 0) throw new Error(`${where}.rpcUrls: must be a non-empty array`);
  const endpoints = list.map((item, i) => endpointOf(item, env, hasOne ? `${where}.rpcUrl` : `${where}.rpcUrls.${i}`));
  const seen = new Set<string>();
  for (const [i, e] of endpoints.entries()) {
    if (seen.has(e.url)) throw new Error(`${where}.rpcUrls.${i}: the same URL twice`);
    seen.add(e.url);
  }
  return endpoints;
}

function endpointOf(item: unknown, env: NodeJS.ProcessEnv, where: string): RpcEndpointDef {
  const obj = typeof item === 'string' ? { url: item } : item;
  if (!obj || typeof obj !== 'object' || Array.isArray(obj)) throw new Error(`${where}: must be a URL or {url, weight?, maxRps?, getLogsMaxRange?, maxBatch?}`);
  const { url, weight, maxRps, getLogsMaxRange, maxBatch, ...rest } = obj as Record<string, unknown>;
  const unknown = Object.keys(rest);
  if (unknown.length > 0) throw new Error(`${where}: unknown field ${unknown[0]}`);
  if (typeof url !== 'string') throw new Error(`${where}.url: must be a string`);
  const filled = fillPlaceholders(url, env, `${where}.url`);
  // The message shows the template, never the filled URL (it may hold a key).
  if (!URL_SHAPE.test(filled)) throw new Error(`${where}.url: must be an http(s) or ws(s) URL (${url})`);
  return {
    url: filled,
    weight: positive(weight, `${where}.weight`, 1000, false) ?? 1,
    maxRps: positive(maxRps, `${where}.maxRps`, 100_000, false),
    getLogsMaxRange: positive(getLogsMaxRange, `${where}.getLogsMaxRange`, 1_000_000, true),
    maxBatch: positive(maxBatch, `${where}.maxBatch`, 1000, true),
  };
}

function positive(value: unknown, where: string, max: number, integer: boolean): number | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0 || value > max || (integer && !Number.isInteger(value))) {
    throw new Error(`${where}: must be a positive ${integer ? 'integer' : 'number'} up to ${max}`);
  }
  return value;
}
