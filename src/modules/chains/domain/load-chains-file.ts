import { plainToInstance } from 'class-transformer';
import { ValidationError, validateSync } from 'class-validator';
import { readFileSync } from 'node:fs';
import { ChainDefinition, ChainsFile } from './chain-definition';

/** Reads and validates CHAINS_FILE; any problem stops startup with the path of the bad field. */
export function loadChainsFile(path: string): ChainDefinition[] {
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(path, 'utf8'));
  } catch (err) {
    throw new Error(`CHAINS_FILE ${path} cannot be read as JSON: ${(err as Error).message}`);
  }
  const file = plainToInstance(ChainsFile, raw);
  const errors = validateSync(file, { whitelist: false });
  if (errors.length > 0) throw new Error(`CHAINS_FILE ${path} is invalid:\n${describe(errors).join('\n')}`);
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
