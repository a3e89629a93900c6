/** What other modules may use of tx-events: the publisher, the signal subscriber, and the notification shapes (the outbox's SQL fragments: statements.ts). */
export { TxEventsModule } from './tx-events.module';
export { notificationFor } from './tx-notification';
export type { TxNotification, TxSignal } from './tx-notification';
export type { FailureReason, TxRecord, TxStatus } from './tx-record';
export { TxSignalSubscriber } from './tx-signal.subscriber';
export { TxStatusEventStore } from './tx-status-event.store';
export { TxStatusPublisher, txSignalChannel } from './tx-status.publisher';
export type { AccountEvent, DepositEvent, LowBalanceEvent } from './account-event';
export { AccountSignals } from './account-signals';
export { failureReasonOf, stagesOf } from './tx-record-fields';
export type { TxStages } from './tx-record-fields';
