import { Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { TxSignal } from '../../tx-events';
import { TxSignalSubscriber } from '../../tx-events';
import { OrderTracker } from '../domain/order-tracker.service';
import { VaultOrderStore } from '../store/vault-order.store';

/** Settles an order as soon as the relay announces its transaction's final status. */
@Injectable()
export class OrderSignalListener implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger(OrderSignalListener.name);
  private stop?: () => void;

  constructor(
    private readonly signals: TxSignalSubscriber,
    private readonly tracker: OrderTracker,
    private readonly orders: VaultOrderStore,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    this.stop = await this.signals.listen(null, (signal) => void this.onSignal(signal));
  }

  onModuleDestroy(): void {
    this.stop?.();
  }

  private async onSignal(signal: TxSignal): Promise<void> {
    // Only final statuses move an order; GET shows the hash of a relaying one from the relay itself.
    const { txId, status } = signal.notification;
    if (signal.kind !== 'status' || status === 'PENDING') return;
    // Another feature's transaction (a signal whose publisher did not know the origin may still be a vault order's).
    if (signal.origin !== undefined && signal.origin !== 'vault') return;
    try {
      for (const id of await this.orders.relayingIdsOfRelayTx(txId)) await this.tracker.track(id);
    } catch (err) {
      this.logger.warn(`order update from the signal of ${txId} failed (the tracking job retries): ${(err as Error).message}`);
    }
  }
}
