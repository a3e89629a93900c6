import { Module } from '@nestjs/common';
import { VaultCoreModule } from './vault-core.module';
import { LivenessModule } from '../liveness';
import { ApySamplerProcessor } from './worker/apy-sampler.processor';
import { OrderOutcomeListener } from './worker/order-outcome.listener';
import { OrderTrackingProcessor } from './worker/order-tracking.processor';

/** Share-price sampling and order tracking: loaded by APP_ROLE worker and all. */
@Module({
  imports: [VaultCoreModule, LivenessModule],
  providers: [ApySamplerProcessor, OrderTrackingProcessor, OrderOutcomeListener],
})
export class VaultWorkerModule {}
