import { Module } from '@nestjs/common';
import { LivenessModule } from '../liveness';
import { FundingModule } from './funding.module';
import { DepositWatchProcessor } from './worker/deposit-watch.processor';

/** The periodic deposit pass: loaded by APP_ROLE worker and all. */
@Module({
  imports: [FundingModule, LivenessModule],
  providers: [DepositWatchProcessor],
})
export class FundingWorkerModule {}
