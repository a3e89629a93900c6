import { Module } from '@nestjs/common';
import { TxSignalSubscriber } from './tx-signal.subscriber';
import { TxStatusEventStore } from './tx-status-event.store';
import { TxStatusPublisher } from './tx-status.publisher';

@Module({
  providers: [TxStatusEventStore, TxStatusPublisher, TxSignalSubscriber],
  exports: [TxStatusEventStore, TxStatusPublisher, TxSignalSubscriber],
})
export class TxEventsModule {}
