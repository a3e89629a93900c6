import Ajv, { type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import { readFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import tokenListSchema from '@uniswap/token-lists/src/tokenlist.schema.json';
import type { TokenDef } from './chain-definition';

const FETCH_TIMEOUT_MS = 15_000;
const EVM_ADDRESS = /^0x[0-9a-fA-F]{40}$/;

interface ListedToken {
  chainId: number;
  address: string;
  name: string;
  symbol: string;
  decimals: number;
  logoURI?: string;
}

let validator: ValidateFunction | undefined;

/** Uniswap's token-lists JSON schema (@uniswap/token-lists), compiled once. */
function validate(list: unknown): string | null {
  if (!validator) {
    const ajv = new Ajv({ allErrors: true, strict: false });
    addFormats(ajv);
    validator = ajv.compile(tokenListSchema);
  }
  if (validator(list)) return null;
  return (validator.errors ?? [])
    .slice(0, 5)
    .map((e) => `${e.instancePath || '/'} ${e.message ?? 'is invalid'}`)
    .join('; ');
}

/** The list's text from an https:// URL or a file path (relative paths from the chains file's folder). */
async function fetchList(source: string, chainsFile: string): Promise<string> {
  if (source.startsWith('https://')) {
    const res = await fetch(source, { signal: AbortSignal.timeout(FETCH_TIMEOUT_MS) });
    if (!res.ok) throw new Error(`HTTP ${res.status}`);
    return res.text();
  }
  return readFile(resolve(dirname(chainsFile), source), 'utf8');
}

/**
 * The tokens of `chainId` in a token list (Uniswap token-lists schema), as the chains file's
 * `tokens` entries (`logoURI` → `logoUrl`). Any problem (unreadable, not JSON, not a valid list,
 * a token of this chain without an EVM address) is an Error naming the list and the entry.
 */
export async function tokensFromList(source: string, chainId: number, chainsFile: string): Promise<TokenDef[]> {
  const where = `chain ${chainId} tokenList ${source}`;
  let list: unknown;
  try {
    list = JSON.parse(await fetchList(source, chainsFile));
  } catch (err) {
    throw new Error(`${where} cannot be read as JSON: ${(err as Error).message}`);
  }
  const invalid = validate(list);
  if (invalid) throw new Error(`${where} is not a valid token list: ${invalid}`);
  const tokens = (list as { tokens: ListedToken[] }).tokens;
  return tokens.flatMap((t, i) => {
    if (t.chainId !== chainId) return [];
    if (!EVM_ADDRESS.test(t.address)) throw new Error(`${where} is not a valid token list: /tokens/${i}/address ${t.address} is not an EVM address`);
    return [{ address: t.address, symbol: t.symbol, name: t.name, decimals: t.decimals, ...(t.logoURI ? { logoUrl: t.logoURI } : {}) }];
  });
}

/** `tokens` and then the list's tokens not already there (an entry in `tokens` wins over the list's). */
export function mergeTokens(configured: TokenDef[], listed: TokenDef[]): TokenDef[] {
  const seen = new Set(configured.map((t) => t.address.toLowerCase()));
  const added = listed.filter((t) => {
    const key = t.address.toLowerCase();
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
  return [...configured, ...added];
}
