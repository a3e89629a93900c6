import { Injectable, Logger } from '@nestjs/common';
import { AppConfig } from '../../../config/app-config';
import { ChainHealthService } from '../../chains';
import { VaultShareSampleStore } from '../store/vault-share-sample.store';
import { annualizedGrowth } from './apy-math';
import { VaultReader } from './vault-reader.service';
import { Venue, VenueRegistry } from './venue-registry';

/**
 * Share-price samples and the gross APY measured from them. One sample per venue per block:
 * the price only changes with block time, so a second reading in the same block adds nothing.
 */
@Injectable()
export class ApyService {
  private readonly logger = new Logger(ApyService.name);

  constructor(
    private readonly samples: VaultShareSampleStore,
    private readonly venues: VenueRegistry,
    private readonly reader: VaultReader,
    private readonly health: ChainHealthService,
    private readonly config: AppConfig,
  ) {}

  /** Samples every venue on every healthy chain at that chain's latest block. */
  async sampleAll(): Promise<number> {
    const byChain = new Map<number, Venue[]>();
    for (const venue of this.venues.all()) byChain.set(venue.chainId, [...(byChain.get(venue.chainId) ?? []), venue]);
    let stored = 0;
    for (const [chainId, venues] of byChain) {
      if (!this.health.isHealthy(chainId)) continue;
      try {
        const block = await this.reader.latestBlock(chainId);
        const results = await Promise.allSettled(venues.map((venue) => this.sample(venue, block)));
        stored += results.filter((r) => r.status === 'fulfilled' && r.value).length;
        for (const r of results) if (r.status === 'rejected') this.logger.warn(`share price sample failed on chain ${chainId}: ${(r.reason as Error).message.split('\n')[0]}`);
      } catch (err) {
        this.logger.warn(`share price sampling skipped chain ${chainId}: ${(err as Error).message.split('\n')[0]}`);
      }
    }
    return stored;
  }

  /**
   * Compounded APY between the oldest sample inside VAULT_APY_WINDOW_SECONDS and the newest one;
   * null until the samples span VAULT_APY_MIN_SPAN_SECONDS (such a venue is not offered yet).
   */
  async grossApy(venue: Venue): Promise<number | null> {
    const rows = await this.samples.window(venue.chainId, venue.vault, this.config.VAULT_APY_WINDOW_SECONDS);
    if (rows.length < 2) return null;
    const [oldest, latest] = rows;
    const span = Number(latest.t) - Number(oldest.t);
    if (span < this.config.VAULT_APY_MIN_SPAN_SECONDS || BigInt(oldest.assets_per_share) === 0n) return null;
    return annualizedGrowth(BigInt(oldest.assets_per_share), BigInt(latest.assets_per_share), span);
  }

  private async sample(venue: Venue, block: { number: number; timestamp: number }): Promise<boolean> {
    const { assetsPerShare, totalAssets } = await this.reader.sharePrice(venue, block.number);
    return this.samples.insert({ chainId: venue.chainId, vault: venue.vault, blockNumber: block.number, blockTime: block.timestamp, assetsPerShare, totalAssets });
  }
}
