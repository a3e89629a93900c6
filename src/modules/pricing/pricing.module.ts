import { Module } from '@nestjs/common';
import { ChainsModule } from '../chains';
import { PricingService } from './pricing.service';
import { NATIVE_PRICE_SOURCES } from './sources/price-source';
import { StaticPriceSource } from './sources/static-price.source';
import { V2PoolPriceSource } from './sources/v2-pool-price.source';

@Module({
  imports: [ChainsModule],
  providers: [
    V2PoolPriceSource,
    StaticPriceSource,
    {
      provide: NATIVE_PRICE_SOURCES,
      inject: [V2PoolPriceSource, StaticPriceSource],
      // Order is priority: the live pool first, the configured constant last.
      useFactory: (pool: V2PoolPriceSource, fixed: StaticPriceSource) => [pool, fixed],
    },
    PricingService,
  ],
  exports: [PricingService],
})
export class PricingModule {}
