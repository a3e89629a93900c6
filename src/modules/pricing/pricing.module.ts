import { Module } from '@nestjs/common';
import { ChainsModule } from '../chains';
import { PricingService } from './pricing.service';
import { ChainlinkPriceSource } from './sources/chainlink-price.source';
import { NATIVE_PRICE_SOURCES } from './sources/price-source';
import { StaticPriceSource } from './sources/static-price.source';
import { V2PoolPriceSource } from './sources/v2-pool-price.source';

@Module({
  imports: [ChainsModule],
  providers: [
    ChainlinkPriceSource,
    V2PoolPriceSource,
    StaticPriceSource,
    {
      provide: NATIVE_PRICE_SOURCES,
      inject: [ChainlinkPriceSource, V2PoolPriceSource, StaticPriceSource],
      // Order is priority: the oracle, then the pool's spot price, the configured constant last.
      useFactory: (feed: ChainlinkPriceSource, pool: V2PoolPriceSource, fixed: StaticPriceSource) => [feed, pool, fixed],
    },
    PricingService,
  ],
  exports: [PricingService],
})
export class PricingModule {}
