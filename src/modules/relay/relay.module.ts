import { Module } from '@nestjs/common';
import { PendingWriter } from './domain/pending-writer.service';
import { SubmissionService } from './domain/submission.service';
import { SyncWaitService } from './domain/sync-wait.service';
import { ExchangeRelayService } from './exchange/exchange-relay.service';
import { FundingSignedService } from './funding/funding-signed.service';
import { TxListController } from './listing/tx-list.controller';
import { TxListService } from './listing/tx-list.service';
import { RelayController } from './relay.controller';
import { RelayCoreModule } from './relay-core.module';

/** The relay's HTTP side; other features relay through SubmissionService. */
@Module({
  imports: [RelayCoreModule],
  controllers: [RelayController, TxListController],
  providers: [PendingWriter, SubmissionService, SyncWaitService, ExchangeRelayService, FundingSignedService, TxListService],
  exports: [SubmissionService, SyncWaitService],
})
export class RelayModule {}
