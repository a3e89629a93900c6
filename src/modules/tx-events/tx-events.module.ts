import { Module } from '@nestjs/common';
import { AccountSignals } from './account-signals';
import { TxSignalSubscriber } from './tx-signal.subscriber';
import { TxStatusEventStore } from './tx-status-event.store';
import { TxStatusPublisher } from './tx-status.publisher';

@Module({
  providers: [TxStatusEventStore, TxStatusPublisher, TxSignalSubscriber, AccountSignals],
  exports: [TxStatusEventStore, TxStatusPublisher, TxSignalSubscriber, AccountSignals],
})
export class TxEventsModule {}
