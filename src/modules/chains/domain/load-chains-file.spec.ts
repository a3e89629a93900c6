import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import 'reflect-metadata';
import { loadChainsFile } from './load-chains-file';

const chain = {
  chainId: 1,
  name: 'One',
  rpcUrl: 'http://127.0.0.1:1',
  enabled: true,
  isTestnet: false,
  nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
  blockExplorer: { name: 'x', url: '', apiUrl: '' },
  capabilities: { eip7702: false, flashBlocks: false, exchangeAction: false },
};

function write(content: unknown): string {
  const path = join(mkdtempSync(join(tmpdir(), 'chains-')), 'chains.json');
  writeFileSync(path, typeof content === 'string' ? content : JSON.stringify(content));
  return path;
}

describe('loadChainsFile', () => {
  it('loads a valid file', () => {
    expect(loadChainsFile(write({ chains: [chain] }))[0].chainId).toBe(1);
  });

  it('names the bad field', () => {
    expect(() => loadChainsFile(write({ chains: [{ ...chain, nativeCurrency: { name: 'E', symbol: 'E', decimals: -1 } }] }))).toThrow(
      /chains\.0\.nativeCurrency\.decimals/,
    );
  });

  it('rejects duplicate chain ids, unreadable JSON and EVM chains without an RPC', () => {
    expect(() => loadChainsFile(write({ chains: [chain, chain] }))).toThrow(/chains/);
    expect(() => loadChainsFile(write('{nope'))).toThrow(/cannot be read as JSON/);
    expect(() => loadChainsFile(write({ chains: [{ ...chain, rpcUrl: undefined }] }))).toThrow(/needs rpcUrl/);
  });

  it('requires an exchange endpoint for exchange-action chains', () => {
    const exchange = { ...chain, rpcUrl: undefined, capabilities: { ...chain.capabilities, exchangeAction: true } };
    expect(() => loadChainsFile(write({ chains: [exchange] }))).toThrow(/needs exchangeApiUrl/);
    expect(loadChainsFile(write({ chains: [{ ...exchange, exchangeApiUrl: 'http://127.0.0.1:8547' }] }))).toHaveLength(1);
  });
});
