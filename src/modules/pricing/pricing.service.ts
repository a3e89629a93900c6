import { Inject, Injectable, Logger } from '@nestjs/common';
import { AppError } from '../../common/errors/app-error';
import { AppConfig } from '../../config/app-config';
import { ChainDefinition, ChainRegistry } from '../chains';
import { PriceAnchors } from './price-band';
import { ChainlinkPriceSource } from './sources/chainlink-price.source';
import { NATIVE_PRICE_SOURCES, NativePriceSource } from './sources/price-source';

export interface NativePrice {
  usd: number;
  /** `chainlink`, `v2-pool` or `static`: which source answered. */
  source: string;
  at: number;
}

/** What the caller will convert at this price; a native `value` limits which sources may answer. */
export interface PriceUse {
  valueWei?: bigint;
}

/**
 * Native-currency USD prices. Sources are tried in order (Chainlink feed, V2 pool spot, static
 * constant); a live reading outside the sanity band around the chain's last good price is refused
 * like a stale one (`PriceAnchors`). A price is reused for PRICE_CACHE_MS so a burst of estimates
 * costs one RPC round trip. No source at all: 503 CHAIN_004.
 */
@Injectable()
export class PricingService {
  private readonly logger = new Logger(PricingService.name);
  private readonly cache = new Map<number, NativePrice>();
  private readonly inflight = new Map<number, Promise<NativePrice>>();
  private readonly anchors: PriceAnchors;

  constructor(
    private readonly registry: ChainRegistry,
    private readonly config: AppConfig,
    @Inject(NATIVE_PRICE_SOURCES) private readonly sources: NativePriceSource[],
    private readonly feed: ChainlinkPriceSource,
  ) {
    this.anchors = new PriceAnchors(config.PRICE_BAND_PERCENT, config.PRICE_BAND_WINDOW_SECONDS * 1000);
  }

  async nativeUsd(chainId: number, use: PriceUse = {}): Promise<NativePrice> {
    const price = await this.current(chainId);
    if (use.valueWei !== undefined && use.valueWei > 0n) this.checkValue(this.registry.get(chainId), price, use.valueWei);
    return price;
  }

  /**
   * The native price as of a block, in micro-USD: the chain's Chainlink feed read at that block
   * (the same answer for every reader, whenever it asks), else the current price of the live
   * sources (`source` says which). CHAIN_004 when neither answers.
   */
  async nativeMicroUsdAt(chainId: number, blockNumber: number): Promise<{ microUsd: bigint; source: string }> {
    const chain = this.registry.get(chainId);
    try {
      const atBlock = await this.feed.nativeMicroUsdAt(chain, blockNumber);
      if (atBlock !== null) return { microUsd: atBlock, source: 'chainlink@block' };
    } catch (err) {
      this.logger.warn(`feed of chain ${chainId} at block ${blockNumber}: ${(err as Error).message.split('\n')[0]}`);
    }
    const price = await this.current(chainId);
    return { microUsd: BigInt(Math.round(price.usd * 1e6)), source: price.source };
  }

  private current(chainId: number): Promise<NativePrice> {
    const cached = this.cache.get(chainId);
    if (cached && Date.now() - cached.at < this.config.PRICE_CACHE_MS) return Promise.resolve(cached);
    let pending = this.inflight.get(chainId);
    if (!pending) {
      pending = this.fetch(chainId).finally(() => this.inflight.delete(chainId));
      this.inflight.set(chainId, pending);
    }
    return pending;
  }

  /**
   * A pool's spot price can be moved by one trade: a transaction's native `value` is converted at
   * it only up to PRICE_POOL_MAX_VALUE_USD, so a moved pair cannot make a limit buy more of the
   * relayer's native currency than that (docs/decisions.md, "Market data").
   */
  private checkValue(chain: ChainDefinition, price: NativePrice, valueWei: bigint): void {
    if (price.source !== 'v2-pool') return;
    const valueUsd = (Number(valueWei) / 10 ** chain.nativeCurrency.decimals) * price.usd;
    if (valueUsd > this.config.PRICE_POOL_MAX_VALUE_USD) {
      throw new AppError(
        'CHAIN_004',
        `chain ${chain.chainId} is priced from a pool spot price only now (its feed is stale or out of band): a native value above ${this.config.PRICE_POOL_MAX_VALUE_USD} USD is not accepted until the feed answers`,
      );
    }
  }

  private async fetch(chainId: number): Promise<NativePrice> {
    const chain = this.registry.get(chainId);
    const anchorSource = chain.pricing?.chainlink ? 'chainlink' : 'v2-pool';
    for (const source of this.sources) {
      try {
        const usd = await source.nativeUsd(chain);
        if (usd === null || !Number.isFinite(usd) || usd <= 0) continue;
        const now = Date.now();
        // The static price is the operator's own last resort, not a market reading: no band.
        if (source.name !== 'static') {
          const verdict = this.anchors.check(chainId, usd, now);
          if (verdict !== null) {
            this.logger.warn(`price source ${source.name} for chain ${chainId} refused: ${verdict}`);
            continue;
          }
          // Only the chain's most trusted live source moves the anchor: a pool cannot walk it.
          if (source.name === anchorSource) this.anchors.set(chainId, usd, now);
        }
        const price = { usd, source: source.name, at: now };
        this.cache.set(chainId, price);
        return price;
      } catch (err) {
        this.logger.warn(`price source ${source.name} failed for chain ${chainId}: ${(err as Error).message.split('\n')[0]}`);
      }
    }
    this.cache.delete(chainId);
    throw new AppError('CHAIN_004', `no fresh USD price for the native currency of chain ${chainId}`);
  }
}

/** The price a settlement records (`nativePriceUsd`): what weiToMicroUsd converts at, 6 decimals. */
export function recordedPrice(price: NativePrice): string {
  return (Math.round(price.usd * 1e6) / 1e6).toFixed(6);
}
