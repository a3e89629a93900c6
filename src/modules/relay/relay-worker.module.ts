import { Module } from '@nestjs/common';
import { ReconcilerProcessor } from './pipeline/reconciler.processor';
import { ReconcilerService } from './pipeline/reconciler.service';
import { RelayCoreModule } from './relay-core.module';
import { LivenessModule } from '../liveness';
import { BroadcastMarks } from './pipeline/broadcast-marks';
import { ReceiptTracker } from './pipeline/receipt-tracker.service';
import { SendProcessor } from './pipeline/send.processor';
import { Abandonment } from './pipeline/abandonment.service';
import { ChainIo } from './pipeline/chain-io.service';
import { DerivedFunding } from './pipeline/derived-funding.service';
import { MinedCheck } from './pipeline/mined-check';
import { SettledFinality } from './pipeline/settled-finality.service';
import { NonceFiller } from './pipeline/nonce-filler';
import { NonceFate } from './pipeline/nonce-fate';
import { SenderService } from './pipeline/sender.service';
import { GasPriceHold } from './pipeline/gas-price-hold';
import { KeyRetirement } from './pipeline/key-retirement.service';

/** Queue consumers, receipt tracking and the reconciler: loaded by APP_ROLE worker and all. */
@Module({
  imports: [RelayCoreModule, LivenessModule],
  providers: [ChainIo, MinedCheck, NonceFate, NonceFiller, DerivedFunding, Abandonment, GasPriceHold, SenderService, BroadcastMarks, ReceiptTracker, SendProcessor, ReconcilerService, ReconcilerProcessor, SettledFinality, KeyRetirement],
  exports: [ReconcilerService, SenderService],
})
export class RelayWorkerModule {}
