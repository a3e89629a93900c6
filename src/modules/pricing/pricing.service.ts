import { Inject, Injectable, Logger } from '@nestjs/common';
import { AppError } from '../../common/errors/app-error';
import { AppConfig } from '../../config/app-config';
import { ChainRegistry } from '../chains';
import { NATIVE_PRICE_SOURCES, NativePriceSource } from './sources/price-source';

export interface NativePrice {
  usd: number;
  source: string;
  at: number;
}

/**
 * Native-currency USD prices. Sources are tried in order (live first, static last); a
 * price is reused for PRICE_CACHE_MS so a burst of estimates costs one RPC round trip.
 */
@Injectable()
export class PricingService {
  private readonly logger = new Logger(PricingService.name);
  private readonly cache = new Map<number, NativePrice>();
  private readonly inflight = new Map<number, Promise<NativePrice>>();

  constructor(
    private readonly registry: ChainRegistry,
    private readonly config: AppConfig,
    @Inject(NATIVE_PRICE_SOURCES) private readonly sources: NativePriceSource[],
  ) {}

  async nativeUsd(chainId: number): Promise<NativePrice> {
    const cached = this.cache.get(chainId);
    if (cached && Date.now() - cached.at < this.config.PRICE_CACHE_MS) return cached;
    let pending = this.inflight.get(chainId);
    if (!pending) {
      pending = this.fetch(chainId).finally(() => this.inflight.delete(chainId));
      this.inflight.set(chainId, pending);
    }
    return pending;
  }

  private async fetch(chainId: number): Promise<NativePrice> {
    const chain = this.registry.get(chainId);
    for (const source of this.sources) {
      try {
        const usd = await source.nativeUsd(chain);
        if (usd !== null && Number.isFinite(usd) && usd > 0) {
          const price = { usd, source: source.name, at: Date.now() };
          this.cache.set(chainId, price);
          return price;
        }
      } catch (err) {
        this.logger.warn(`price source ${source.name} failed for chain ${chainId}: ${(err as Error).message.split('\n')[0]}`);
      }
    }
    throw new AppError('SYSTEM_002', `no USD price available for the native currency of chain ${chainId}`);
  }
}
