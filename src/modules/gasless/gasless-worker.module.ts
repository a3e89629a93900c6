import { Module } from '@nestjs/common';
import { RelayCoreModule } from '../relay';
import { GaslessModule } from './gasless.module';
import { GaslessOutcomeListener } from './worker/gasless-outcome.listener';

/** Swap rows following their settlements' outcomes: loaded by APP_ROLE worker and all. */
@Module({
  imports: [GaslessModule, RelayCoreModule],
  providers: [GaslessOutcomeListener],
})
export class GaslessWorkerModule {}
