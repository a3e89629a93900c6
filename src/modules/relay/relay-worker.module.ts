import { Module } from '@nestjs/common';
import { ReconcilerProcessor } from './pipeline/reconcile/reconciler.processor';
import { ReconcilerService } from './pipeline/reconcile/reconciler.service';
import { RelayCoreModule } from './relay-core.module';
import { LivenessModule } from '../liveness';
import { BroadcastMarks } from './pipeline/send/broadcast-marks';
import { ReceiptTracker } from './pipeline/track/receipt-tracker.service';
import { SendProcessor } from './pipeline/send/send.processor';
import { Abandonment } from './pipeline/settle/abandonment.service';
import { ChainIo } from './pipeline/node/chain-io.service';
import { DerivedFunding } from './pipeline/send/derived-funding.service';
import { MinedCheck } from './pipeline/track/mined-check';
import { SettledFinality } from './pipeline/settle/settled-finality.service';
import { NonceFiller } from './pipeline/keys/nonce-filler';
import { NonceFate } from './pipeline/keys/nonce-fate';
import { SenderService } from './pipeline/send/sender.service';
import { GasPriceHold } from './pipeline/send/gas-price-hold';
import { KeyRetirement } from './pipeline/keys/key-retirement.service';

/** Queue consumers, receipt tracking and the reconciler: loaded by APP_ROLE worker and all. */
@Module({
  imports: [RelayCoreModule, LivenessModule],
  providers: [ChainIo, MinedCheck, NonceFate, NonceFiller, DerivedFunding, Abandonment, GasPriceHold, SenderService, BroadcastMarks, ReceiptTracker, SendProcessor, ReconcilerService, ReconcilerProcessor, SettledFinality, KeyRetirement],
  exports: [ReconcilerService, SenderService],
})
export class RelayWorkerModule {}
