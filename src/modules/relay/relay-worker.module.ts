import { Module } from '@nestjs/common';
import { ReconcilerProcessor } from './reconciler/reconciler.processor';
import { ReconcilerService } from './reconciler/reconciler.service';
import { RelayCoreModule } from './relay-core.module';
import { BroadcastMarks } from './sending/broadcast-marks';
import { ReceiptTracker } from './sending/receipt-tracker.service';
import { SendProcessor } from './sending/send.processor';
import { SenderService } from './sending/sender.service';

/** Queue consumers, receipt tracking and the reconciler: loaded by APP_ROLE worker and all. */
@Module({
  imports: [RelayCoreModule],
  providers: [SenderService, BroadcastMarks, ReceiptTracker, SendProcessor, ReconcilerService, ReconcilerProcessor],
  exports: [ReconcilerService, SenderService],
})
export class RelayWorkerModule {}
