import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { sql } from '../../../database/sql';
import { SqlStore } from '../../../database/sql-store';

export interface ShareSample {
  chainId: number;
  vault: string;
  blockNumber: number;
  /** Unix seconds. */
  blockTime: number;
  assetsPerShare: bigint;
  totalAssets: bigint;
}

/** A sample's share price (base-10 string) and block time (unix seconds, as a string). */
export interface SamplePoint {
  assets_per_share: string;
  t: string;
}

/** The `vault_share_samples` table: one share-price sample per venue per block. */
@Injectable()
export class VaultShareSampleStore extends SqlStore {
  constructor(@InjectDataSource() dataSource: DataSource) {
    super(dataSource);
  }

  /** False when the block already has a sample of this vault. */
  async insert(sample: ShareSample): Promise<boolean> {
    const inserted = await this.rows(
      sql`INSERT INTO vault_share_samples (chain_id, vault, block_number, block_time, assets_per_share, total_assets)
          VALUES (${sample.chainId}, ${sample.vault}, ${sample.blockNumber}, to_timestamp(${sample.blockTime}), ${sample.assetsPerShare}, ${sample.totalAssets})
          ON CONFLICT (chain_id, vault, block_number) DO NOTHING RETURNING id`,
    );
    return inserted.length > 0;
  }

  /**
   * The oldest sample at most `windowSeconds` before the newest one, then the newest one: two
   * points (the same sample twice when there is one), none without samples.
   */
  window(chainId: number, vault: string, windowSeconds: number): Promise<SamplePoint[]> {
    return this.rows<SamplePoint>(
      sql`WITH latest AS (
            SELECT assets_per_share, block_time FROM vault_share_samples
            WHERE chain_id = ${chainId} AND vault = ${vault} ORDER BY block_time DESC LIMIT 1
          ), oldest AS (
            SELECT s.assets_per_share, s.block_time FROM vault_share_samples s, latest
            WHERE s.chain_id = ${chainId} AND s.vault = ${vault} AND s.block_time >= latest.block_time - make_interval(secs => ${windowSeconds})
            ORDER BY s.block_time ASC LIMIT 1
          )
          SELECT assets_per_share, extract(epoch FROM block_time)::bigint AS t FROM oldest
          UNION ALL
          SELECT assets_per_share, extract(epoch FROM block_time)::bigint AS t FROM latest`,
    );
  }
}
