import { Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { AppConfig } from '../../../config/app-config';
import { ChainHealthService } from '../../chains/domain/chain-health.service';
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
    @InjectDataSource() private readonly db: DataSource,
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
    const rows: Array<{ assets_per_share: string; t: string }> = await this.db.query(
      `WITH latest AS (
         SELECT assets_per_share, block_time FROM vault_share_samples
         WHERE chain_id = $1 AND vault = $2 ORDER BY block_time DESC LIMIT 1
       ), oldest AS (
         SELECT s.assets_per_share, s.block_time FROM vault_share_samples s, latest
         WHERE s.chain_id = $1 AND s.vault = $2 AND s.block_time >= latest.block_time - make_interval(secs => $3)
         ORDER BY s.block_time ASC LIMIT 1
       )
       SELECT assets_per_share, extract(epoch FROM block_time)::bigint AS t FROM oldest
       UNION ALL
       SELECT assets_per_share, extract(epoch FROM block_time)::bigint AS t FROM latest`,
      [venue.chainId, venue.vault, this.config.VAULT_APY_WINDOW_SECONDS],
    );
    if (rows.length < 2) return null;
    const [oldest, latest] = rows;
    const span = Number(latest.t) - Number(oldest.t);
    if (span < this.config.VAULT_APY_MIN_SPAN_SECONDS || BigInt(oldest.assets_per_share) === 0n) return null;
    return annualizedGrowth(BigInt(oldest.assets_per_share), BigInt(latest.assets_per_share), span);
  }

  private async sample(venue: Venue, block: { number: number; timestamp: number }): Promise<boolean> {
    const { assetsPerShare, totalAssets } = await this.reader.sharePrice(venue, block.number);
    const inserted: unknown[] = await this.db.query(
      `INSERT INTO vault_share_samples (chain_id, vault, block_number, block_time, assets_per_share, total_assets)
       VALUES ($1, $2, $3, to_timestamp($4), $5, $6) ON CONFLICT (chain_id, vault, block_number) DO NOTHING RETURNING id`,
      [venue.chainId, venue.vault, block.number, block.timestamp, assetsPerShare.toString(), totalAssets.toString()],
    );
    return inserted.length > 0;
  }
}
