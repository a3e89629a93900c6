import { plainToInstance } from 'class-transformer';
import { ValidationError, validateSync } from 'class-validator';
import { readFileSync } from 'node:fs';
import { ChainDefinition, ChainsFile } from './chain-definition';
import { endpointsOf, RpcEndpointDef } from './rpc-endpoints';

/**
 * Reads and validates CHAINS_FILE; any problem stops startup with the path of the bad field.
 * Provider URLs' `${VAR}` placeholders are filled from `env` first (a missing one is named).
 */
export function loadChainsFile(path: string, env: Readonly<NodeJS.ProcessEnv>): ChainDefinition[] {
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(path, 'utf8'));
  } catch (err) {
    throw new Error(`CHAINS_FILE ${path} cannot be read as JSON: ${(err as Error).message}`);
  }
  const endpoints = new Map<number, RpcEndpointDef[]>();
  const rawChains = (raw as { chains?: unknown })?.chains;
  if (Array.isArray(rawChains)) {
    rawChains.forEach((c: unknown, i) => {
      if (!c || typeof c !== 'object') return;
      const entry = c as Record<string, unknown>;
      let list: RpcEndpointDef[] | null;
      try {
        list = endpointsOf(entry, env, `chains.${i}`);
      } catch (err) {
        throw new Error(`CHAINS_FILE ${path} is invalid:\n  ${(err as Error).message}`);
      }
      if (list) {
        endpoints.set(i, list);
        // Validated below as the first provider's (filled) URL; rpcUrls itself was checked above.
        entry.rpcUrl = list[0].url;
        delete entry.rpcUrls;
      }
    });
  }
  const file = plainToInstance(ChainsFile, raw);
  const errors = validateSync(file, { whitelist: false });
  if (errors.length > 0) throw new Error(`CHAINS_FILE ${path} is invalid:\n${describe(errors).join('\n')}`);
  file.chains.forEach((chain, i) => {
    chain.providers = endpoints.get(i);
  });
  for (const chain of file.chains) {
    if (!chain.capabilities.exchangeAction && !chain.rpcUrl) {
      throw new Error(`CHAINS_FILE ${path}: chain ${chain.chainId} needs rpcUrl (only exchange-action chains may omit it)`);
    }
    if (chain.capabilities.exchangeAction && !chain.exchangeApiUrl) {
      throw new Error(`CHAINS_FILE ${path}: exchange-action chain ${chain.chainId} needs exchangeApiUrl`);
    }
  }
  return file.chains;
}

function describe(errors: ValidationError[], prefix = ''): string[] {
  return errors.flatMap((e) => {
    const path = prefix ? `${prefix}.${e.property}` : e.property;
    const own = Object.values(e.constraints ?? {}).map((c) => `  ${path}: ${c}`);
    return [...own, ...describe(e.children ?? [], path)];
  });
}
