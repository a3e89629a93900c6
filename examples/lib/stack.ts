/**
 * What every example needs: the local stack's manifest (`.local/devnet.json`, written by
 * `npm start`; another file with EXAMPLES_DEVNET), a client with the demo account's API key,
 * and the chain's RPC. Examples run against whatever stack the manifest describes.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { JsonRpcProvider, Wallet } from 'ethers';
import { RelayClient } from '@gas-relay/sdk';

interface Manifest {
  apiUrl: string;
  chains: Array<{ chainId: number; rpcUrl: string; contracts: Record<string, string>; tokens: Array<{ symbol: string; address: string; decimals: number }> }>;
  demo: { address: string; privateKey: string; apiKey: string };
}

export function stack(chainId = 31337) {
  const file = process.env.EXAMPLES_DEVNET ?? join(__dirname, '..', '..', '.local', 'devnet.json');
  const manifest: Manifest = JSON.parse(readFileSync(file, 'utf8'));
  const chain = manifest.chains.find((c) => c.chainId === chainId);
  if (!chain) throw new Error(`chain ${chainId} is not in ${file}`);
  // No response cache: a wallet sending transactions back to back must see each new nonce.
  const provider = new JsonRpcProvider(chain.rpcUrl, chainId, { staticNetwork: true, cacheTimeout: -1 });
  const token = (symbol: string): string => {
    const found = chain.tokens.find((t) => t.symbol === symbol);
    if (!found) throw new Error(`no ${symbol} on chain ${chainId}`);
    return found.address;
  };
  return {
    client: new RelayClient({ baseUrl: manifest.apiUrl, apiKey: manifest.demo.apiKey }),
    apiUrl: manifest.apiUrl,
    chainId,
    provider,
    contracts: chain.contracts,
    token,
    /** The demo account's wallet (holds ETH on the local chains). */
    demoWallet: new Wallet(manifest.demo.privateKey, provider),
  };
}

/** Runs an example's main and exits non-zero on failure (CI runs every example). */
export function run(main: () => Promise<void>): void {
  main().then(
    () => process.exit(0),
    (err: unknown) => {
      console.error(err);
      process.exit(1);
    },
  );
}
