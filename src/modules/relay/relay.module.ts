import { RelayAuditModule } from './audit/relay-audit.module';
import { ChainAuditController } from './http/chain-audit.controller';
import { ChargeAuditController } from './http/charge-audit.controller';
import { Module } from '@nestjs/common';
import { ApprovalGate } from './intake/approval-gate';
import { PendingWriter } from './intake/pending-writer.service';
import { SubmissionService } from './intake/submission.service';
import { SyncWaitService } from './intake/sync-wait.service';
import { ExchangeRelayService } from './intake/exchange/exchange-relay.service';
import { FundingQuoteService } from './intake/funding-quote.service';
import { FundingSignedService } from './intake/funding-signed.service';
import { RelayController } from './http/relay.controller';
import { TxListController } from './http/tx-list.controller';
import { TxListService } from './http/tx-list.service';
import { SyncReplay } from './http/sync-replay';
import { TxActionsController } from './http/tx-actions.controller';
import { TxActionsService } from './actions/tx-actions.service';
import { RelayCoreModule } from './relay-core.module';

/** The relay's HTTP side; other features relay through SubmissionService. */
@Module({
  imports: [RelayCoreModule, RelayAuditModule],
  controllers: [RelayController, TxListController, TxActionsController, ChainAuditController, ChargeAuditController],
  providers: [ApprovalGate, PendingWriter, SubmissionService, SyncWaitService, ExchangeRelayService, FundingSignedService, FundingQuoteService, TxListService, SyncReplay, TxActionsService],
  exports: [SubmissionService, SyncWaitService],
})
export class RelayModule {}
