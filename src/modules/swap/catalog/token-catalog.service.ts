import { Injectable } from '@nestjs/common';
import { getAddress, ZeroAddress } from 'ethers';
import { AppError } from '../../../common/errors/app-error';
import { normalizeAddress } from '../../../common/evm/address';
import { ChainDefinition } from '../../chains';
import type { TokenInfo } from '../domain/types';
import { PoolIndexer } from '../indexer/pool-indexer.service';

export const NATIVE_TOKEN = ZeroAddress;

/**
 * The token catalog: per chain, the native currency (zero address) and the configured tokens
 * with their on-chain metadata, as the pool indexer read them. While a chain's RPC cannot be
 * read the configured values are served, so the catalog never depends on a chain being up.
 */
@Injectable()
export class TokenCatalog {
  constructor(private readonly indexer: PoolIndexer) {}

  /** VALIDATION_003 for a chain that is not a configured, enabled EVM chain. */
  chain(chainId: number): ChainDefinition {
    const chain = this.indexer.swapChains().find((c) => c.chainId === chainId);
    if (!chain) throw new AppError('VALIDATION_003', `chain ${chainId} is not supported`);
    return chain;
  }

  async tokens(chainId?: number): Promise<TokenInfo[]> {
    const chains = chainId === undefined ? this.indexer.swapChains() : [this.chain(chainId)];
    const lists = await Promise.all(chains.map((c) => this.chainTokens(c)));
    return lists.flat();
  }

  async find(chainId: number, address: string): Promise<TokenInfo | null> {
    const wanted = address.toLowerCase();
    return (await this.chainTokens(this.chain(chainId))).find((t) => t.address === wanted) ?? null;
  }

  /** An exact address, or a case-insensitive substring of the symbol or name. */
  async search(query: string, chainId?: number): Promise<TokenInfo[]> {
    const tokens = await this.tokens(chainId);
    const address = normalizeAddress(query);
    if (address) return tokens.filter((t) => t.address === address);
    const needle = query.trim().toLowerCase();
    if (needle === '') return [];
    return tokens.filter((t) => t.symbol.toLowerCase().includes(needle) || t.name.toLowerCase().includes(needle));
  }

  private async chainTokens(chain: ChainDefinition): Promise<TokenInfo[]> {
    const native: TokenInfo = {
      chainId: chain.chainId,
      address: NATIVE_TOKEN,
      symbol: chain.nativeCurrency.symbol,
      name: chain.nativeCurrency.name,
      decimals: chain.nativeCurrency.decimals,
      logoUrl: chain.iconUrl ?? '',
    };
    const market = this.indexer.peek(chain.chainId) ?? (await this.indexer.market(chain.chainId).catch(() => null));
    // The market also holds tokens only discovered in pools (route hops); the catalog is the configured ones.
    const configured = new Set((chain.tokens ?? []).map((t) => t.address.toLowerCase()));
    const erc20s = market
      ? [...market.tokens.values()].filter((t) => configured.has(t.address))
      : (chain.tokens ?? []).map((t) => ({ chainId: chain.chainId, address: t.address.toLowerCase(), symbol: t.symbol, name: t.name, decimals: t.decimals, logoUrl: t.logoUrl ?? '' }));
    return [native, ...erc20s];
  }
}

export function tokenView(token: TokenInfo): { address: string; chainId: number; decimals: number; logoUrl: string; name: string; symbol: string } {
  return { address: checksum(token.address), chainId: token.chainId, decimals: token.decimals, logoUrl: token.logoUrl, name: token.name, symbol: token.symbol };
}

/** EIP-55 checksums are a keccak each; a route repeats the same few addresses, so they are memoized (bounded). */
const CHECKSUMS = new Map<string, string>();
const CHECKSUM_CACHE_SIZE = 10_000;
export const checksum = (address: string): string => {
  let cased = CHECKSUMS.get(address);
  if (cased === undefined) {
    cased = getAddress(address);
    if (CHECKSUMS.size >= CHECKSUM_CACHE_SIZE) CHECKSUMS.clear();
    CHECKSUMS.set(address, cased);
  }
  return cased;
};
