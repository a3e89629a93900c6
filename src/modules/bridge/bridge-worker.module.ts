import { Module } from '@nestjs/common';
import { LivenessModule } from '../liveness';
import { BridgeModule } from './bridge.module';
import { BridgeFillProcessor } from './worker/bridge-fill.processor';

/** The filler's periodic pass: loaded by APP_ROLE worker and all. */
@Module({
  imports: [BridgeModule, LivenessModule],
  providers: [BridgeFillProcessor],
})
export class BridgeWorkerModule {}
