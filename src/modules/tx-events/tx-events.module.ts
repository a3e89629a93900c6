import { Module } from '@nestjs/common';
import { TxSignalSubscriber } from './tx-signal.subscriber';
import { TxStatusPublisher } from './tx-status.publisher';

@Module({
  providers: [TxStatusPublisher, TxSignalSubscriber],
  exports: [TxStatusPublisher, TxSignalSubscriber],
})
export class TxEventsModule {}
