import { Injectable } from '@nestjs/common';
import { microToUsd } from '../../../common/money/usd';
import { LedgerService, SpendBucket } from '../../accounts';
import { chainIdOfTxReference } from '../../relay/statements';
import { SpendDto } from './spend.dto';

const BUCKET_MS: Record<SpendBucket, number> = { hour: 3_600_000, day: 86_400_000 };
const DEFAULT_COUNT: Record<SpendBucket, number> = { hour: 48, day: 30 };

/** The spend chart's data: the ledger's settle entries summed per bucket and chain. */
@Injectable()
export class SpendService {
  constructor(private readonly ledger: LedgerService) {}

  async spend(userId: string, bucket: SpendBucket = 'hour', count = DEFAULT_COUNT[bucket], now = new Date()): Promise<SpendDto> {
    const size = BUCKET_MS[bucket];
    // Whole buckets: the first one starts on its UTC boundary, so the first bar is not partial.
    const since = new Date(Math.floor(now.getTime() / size) * size - (count - 1) * size);
    const rows = await this.ledger.spend(userId, bucket, since, chainIdOfTxReference);
    let total = 0n;
    const points = rows.map((r) => {
      const micro = BigInt(r.spentMicro);
      total += micro;
      return { bucket: r.bucket.toISOString(), chainId: r.chainId, spent: microToUsd(micro), spentMicro: micro.toString(), count: r.count };
    });
    return { bucket, since: since.toISOString(), points, totalSpent: microToUsd(total) };
  }
}
