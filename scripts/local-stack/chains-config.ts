import type { DevnetChain } from '../devnet/deploy';
import { DEX_CONTRACT_KEYS, type DexId, V3_CONTRACT_KEYS, VAULT_VENUES, vaultKey } from '../devnet/plan';

const DEX_NAMES: Record<DexId, string> = { 'uniswap-v2': 'Uniswap V2', 'sushiswap-v2': 'SushiSwap V2' };

/** Capabilities of the local chains (decisions.md, "The local stack"). */
const LOCAL_CHAIN_TRAITS: Record<number, { flashBlocks: boolean; explorer: string }> = {
  31337: { flashBlocks: false, explorer: 'Devnet explorer' },
  84532: { flashBlocks: true, explorer: 'Base Sepolia explorer (local)' },
};

/** Chainlink's ETH/USD heartbeat on mainnet; the local stack's heartbeat keeps the feed younger (heartbeat.ts). */
export const LOCAL_FEED_MAX_AGE_SECONDS = 3600;

/** The exchange-action testnet of decisions.md, served by scripts/exchange on the local stack. */
export const EXCHANGE_TESTNET_ID = 10200001;

function exchangeChain(exchangeApiUrl: string): Record<string, unknown> {
  return {
    chainId: EXCHANGE_TESTNET_ID,
    name: 'Exchange testnet (local)',
    exchangeApiUrl,
    enabled: true,
    isTestnet: true,
    iconUrl: '',
    nativeCurrency: { name: 'USD Coin', symbol: 'USDC', decimals: 6 },
    blockExplorer: { name: 'Exchange explorer (local)', url: '', apiUrl: '' },
    capabilities: { eip7702: false, flashBlocks: false, exchangeAction: true },
    pricing: { staticNativeUsd: 1 },
  };
}

/** Turns a deployed devnet (and the local exchange endpoint, if any) into the CHAINS_FILE the service reads. */
export function chainsFileFor(chains: DevnetChain[], exchangeApiUrl?: string): { chains: unknown[] } {
  return {
    chains: [...chains.map((chain) => {
      const traits = LOCAL_CHAIN_TRAITS[chain.chainId] ?? { flashBlocks: false, explorer: 'local explorer' };
      const usdc = chain.tokens.find((t) => t.symbol === 'USDC');
      const weth = chain.contracts.weth;
      const pair = chain.contracts['pool:uniswap-v2:WETH/USDC'];
      return {
        chainId: chain.chainId,
        name: chain.name,
        rpcUrl: chain.rpcUrl,
        enabled: true,
        isTestnet: true,
        iconUrl: '',
        nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
        blockExplorer: { name: traits.explorer, url: '', apiUrl: '' },
        capabilities: { eip7702: true, flashBlocks: traits.flashBlocks, exchangeAction: false },
        // Instant mining, no reorgs: a nonce consumed at the head is final.
        confirmations: 0,
        contracts: chain.contracts,
        tokens: chain.tokens.filter((t) => !t.extra).map((t) => ({ address: t.address, symbol: t.symbol, name: t.name, decimals: t.decimals, usdStable: t.usdStable === true })),
        venues: venuesOf(chain),
        dexes: (Object.keys(DEX_CONTRACT_KEYS) as DexId[])
          .filter((dex) => chain.contracts[DEX_CONTRACT_KEYS[dex].factory])
          .map((dex): { key: string; name: string; type: string; factory: string; feeBps: number } => ({ key: dex, name: DEX_NAMES[dex], type: 'uniswap-v2', factory: chain.contracts[DEX_CONTRACT_KEYS[dex].factory], feeBps: 30 }))
          .concat(chain.contracts[V3_CONTRACT_KEYS.factory] ? [{ key: 'uniswap-v3', name: 'Uniswap V3', type: 'uniswap-v3', factory: chain.contracts[V3_CONTRACT_KEYS.factory], feeBps: 0 }] : [])
          // With LOCAL_EXTRA_POOLS the pools are discovered from the factories' logs (every catalog pair looked up would not scale).
          .map((dex) => (chain.extraPools ? { ...dex, fromBlock: 0 } : dex)),
        pricing: {
          // The feed answers 3000 USD (scripts/devnet/deploy-market.ts); the pool and the constant are its fallbacks.
          chainlink: chain.contracts.nativeUsdFeed ? { nativeUsd: chain.contracts.nativeUsdFeed, maxAgeSeconds: LOCAL_FEED_MAX_AGE_SECONDS } : undefined,
          nativeUsdPool: usdc && weth && pair ? { pair, wrappedNative: weth, stable: usdc.address, stableDecimals: usdc.decimals } : undefined,
          staticNativeUsd: 3000,
        },
      };
    }), ...(exchangeApiUrl ? [exchangeChain(exchangeApiUrl)] : [])],
  };
}

/** The vault venues deployed on a chain, in the chains file's `venues` shape (docs/configuration.md). */
function venuesOf(chain: DevnetChain): unknown[] {
  return VAULT_VENUES.flatMap((venue) => {
    const vault = chain.contracts[vaultKey(venue.venueId)];
    const asset = chain.tokens.find((t) => t.symbol === venue.asset);
    return vault && asset ? [{ venueId: venue.venueId, vault, asset: asset.address, riskScore: venue.riskScore, feeBps: venue.feeBps }] : [];
  });
}

/** SETTLEMENT_DELEGATE_<chainId> for every chain that has the delegate deployed. */
export function settlementDelegateEnv(chains: DevnetChain[]): Record<string, string> {
  return Object.fromEntries(chains.filter((c) => c.contracts.settlementDelegate).map((c) => [`SETTLEMENT_DELEGATE_${c.chainId}`, c.contracts.settlementDelegate]));
}
