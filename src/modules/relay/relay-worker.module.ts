import { Module } from '@nestjs/common';
import { ReconcilerProcessor } from './pipeline/reconciler.processor';
import { ReconcilerService } from './pipeline/reconciler.service';
import { RelayCoreModule } from './relay-core.module';
import { BroadcastMarks } from './pipeline/broadcast-marks';
import { ReceiptTracker } from './pipeline/receipt-tracker.service';
import { SendProcessor } from './pipeline/send.processor';
import { SenderService } from './pipeline/sender.service';

/** Queue consumers, receipt tracking and the reconciler: loaded by APP_ROLE worker and all. */
@Module({
  imports: [RelayCoreModule],
  providers: [SenderService, BroadcastMarks, ReceiptTracker, SendProcessor, ReconcilerService, ReconcilerProcessor],
  exports: [ReconcilerService, SenderService],
})
export class RelayWorkerModule {}
