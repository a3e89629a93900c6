import { buildPoolGraph, nativePrices, type PoolGraph } from '../domain/pool-graph';
import type { DexProvider, PoolState, TokenInfo } from '../domain/types';

/** Everything a quote needs about one chain, held in memory so a quote makes no RPC call. */
export interface ChainMarket {
  chainId: number;
  /** Lowercase wrapped-native address, or null when the chain has none configured. */
  wrappedNative: string | null;
  providers: DexProvider[];
  /** ERC-20 catalog tokens by lowercase address (the native currency is added by the catalog). */
  tokens: Map<string, TokenInfo>;
  pools: Map<string, PoolState>;
  graph: PoolGraph;
  /** Wrapped-native per whole token, for USD figures. */
  nativePrices: Map<string, number>;
  gasPrice: bigint;
  /** Last block whose pool events are applied. */
  block: number;
}

/** Recomputes the derived parts after pools or reserves changed. */
export function reindex(market: Omit<ChainMarket, 'graph' | 'nativePrices'> & Partial<ChainMarket>): ChainMarket {
  const graph = buildPoolGraph(market.pools.values());
  const decimals = new Map([...market.tokens.values()].map((t) => [t.address, t.decimals]));
  const prices = market.wrappedNative ? nativePrices(graph, market.wrappedNative, decimals) : new Map<string, number>();
  return { ...market, graph, nativePrices: prices };
}
