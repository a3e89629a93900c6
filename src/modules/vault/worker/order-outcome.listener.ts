import { Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { RelayOutcome, RelayOutcomes } from '../../relay';
import { OrderTracker } from '../domain/order-tracker.service';
import { VaultOrderStore } from '../store/vault-order.store';

/** Settles an order as soon as the relay announces the outcome of its transaction. */
@Injectable()
export class OrderOutcomeListener implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger(OrderOutcomeListener.name);
  private stop?: () => void;

  constructor(
    private readonly outcomes: RelayOutcomes,
    private readonly tracker: OrderTracker,
    private readonly orders: VaultOrderStore,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    this.stop = await this.outcomes.on('vault', (outcome) => void this.onOutcome(outcome));
  }

  onModuleDestroy(): void {
    this.stop?.();
  }

  private async onOutcome({ txId }: RelayOutcome): Promise<void> {
    try {
      for (const id of await this.orders.relayingIdsOfRelayTx(txId)) await this.tracker.track(id);
    } catch (err) {
      this.logger.warn(`order update from the outcome of ${txId} failed (the tracking job retries): ${(err as Error).message}`);
    }
  }
}
