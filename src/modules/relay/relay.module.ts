import { Module } from '@nestjs/common';
import { PendingWriter } from './intake/pending-writer.service';
import { SubmissionService } from './intake/submission.service';
import { SyncWaitService } from './intake/sync-wait.service';
import { ExchangeRelayService } from './intake/exchange/exchange-relay.service';
import { FundingQuoteService } from './intake/funding-quote.service';
import { FundingSignedService } from './intake/funding-signed.service';
import { RelayController } from './http/relay.controller';
import { RelayCoreModule } from './relay-core.module';

/** The relay's HTTP side; other features relay through SubmissionService. */
@Module({
  imports: [RelayCoreModule],
  controllers: [RelayController],
  providers: [PendingWriter, SubmissionService, SyncWaitService, ExchangeRelayService, FundingSignedService, FundingQuoteService],
  exports: [SubmissionService, SyncWaitService],
})
export class RelayModule {}
