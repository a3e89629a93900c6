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
    expect(loadChainsFile(write({ chains: [chain] }), process.env)[0].chainId).toBe(1);
  });

  it('names the bad field', () => {
    expect(() => loadChainsFile(write({ chains: [{ ...chain, nativeCurrency: { name: 'E', symbol: 'E', decimals: -1 } }] }), process.env)).toThrow(
      /chains\.0\.nativeCurrency\.decimals/,
    );
  });

  it('rejects duplicate chain ids, unreadable JSON and EVM chains without an RPC', () => {
    expect(() => loadChainsFile(write({ chains: [chain, chain] }), process.env)).toThrow(/chains/);
    expect(() => loadChainsFile(write('{nope'), process.env)).toThrow(/cannot be read as JSON/);
    expect(() => loadChainsFile(write({ chains: [{ ...chain, rpcUrl: undefined }] }), process.env)).toThrow(/needs rpcUrl/);
  });

  it('requires an exchange endpoint for exchange-action chains', () => {
    const exchange = { ...chain, rpcUrl: undefined, capabilities: { ...chain.capabilities, exchangeAction: true } };
    expect(() => loadChainsFile(write({ chains: [exchange] }), process.env)).toThrow(/needs exchangeApiUrl/);
    expect(loadChainsFile(write({ chains: [{ ...exchange, exchangeApiUrl: 'http://127.0.0.1:8547' }] }), process.env)).toHaveLength(1);
  });

  describe('rpcUrls (many providers)', () => {
    const { rpcUrl: _one, ...noUrl } = chain;
    void _one;

    it('takes strings and objects, fills ${VAR} from the environment and keeps rpcUrl as the first provider', () => {
      const file = write({
        chains: [{ ...noUrl, rpcUrls: ['https://a.example.io/v3/${A_KEY}', { url: 'https://b.example.io/?key=${B_KEY}', weight: 3, maxRps: 30, getLogsMaxRange: 500, maxBatch: 10 }] }],
      });
      const [loaded] = loadChainsFile(file, { A_KEY: 'aaa', B_KEY: 'bbb' });
      expect(loaded.providers).toEqual([
        { url: 'https://a.example.io/v3/aaa', weight: 1 },
        { url: 'https://b.example.io/?key=bbb', weight: 3, maxRps: 30, getLogsMaxRange: 500, maxBatch: 10 },
      ]);
      expect(loaded.rpcUrl).toBe('https://a.example.io/v3/aaa');
    });

    it('reads rpcUrl as rpcUrls: [rpcUrl], placeholders included', () => {
      const [loaded] = loadChainsFile(write({ chains: [{ ...chain, rpcUrl: '${NODE_URL}' }] }), { NODE_URL: 'http://127.0.0.1:8545' });
      expect(loaded.providers).toEqual([{ url: 'http://127.0.0.1:8545', weight: 1 }]);
    });

    it('stops startup naming a missing variable, and never shows a filled URL in an error', () => {
      expect(() => loadChainsFile(write({ chains: [{ ...noUrl, rpcUrls: ['https://a.example.io/v3/${MISSING_RPC_KEY}'] }] }), {})).toThrow(/MISSING_RPC_KEY is not set/);
      const bad = () => loadChainsFile(write({ chains: [{ ...noUrl, rpcUrls: ['${SCHEMELESS}'] }] }), { SCHEMELESS: 'no-scheme-SECRET' });
      expect(bad).toThrow(/chains\.0\.rpcUrls\.0\.url: must be an http/);
      expect(bad).not.toThrow(/SECRET/);
    });

    it('refuses both fields, an empty list, bad weights and unknown fields, naming the field', () => {
      expect(() => loadChainsFile(write({ chains: [{ ...chain, rpcUrls: ['http://127.0.0.1:2'] }] }), {})).toThrow(/rpcUrl or rpcUrls, not both/);
      expect(() => loadChainsFile(write({ chains: [{ ...noUrl, rpcUrls: [] }] }), {})).toThrow(/rpcUrls: must be a non-empty array/);
      expect(() => loadChainsFile(write({ chains: [{ ...noUrl, rpcUrls: [{ url: 'http://127.0.0.1:2', weight: 0 }] }] }), {})).toThrow(/rpcUrls\.0\.weight/);
      expect(() => loadChainsFile(write({ chains: [{ ...noUrl, rpcUrls: [{ url: 'http://127.0.0.1:2', getLogsMaxRange: 1.5 }] }] }), {})).toThrow(/getLogsMaxRange/);
      expect(() => loadChainsFile(write({ chains: [{ ...noUrl, rpcUrls: [{ url: 'http://127.0.0.1:2', key: 'x' }] }] }), {})).toThrow(/unknown field key/);
      expect(() => loadChainsFile(write({ chains: [{ ...noUrl, rpcUrls: ['http://127.0.0.1:2', 'http://127.0.0.1:2'] }] }), {})).toThrow(/the same URL twice/);
    });
  });
});
