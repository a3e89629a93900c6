import { Injectable, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { AccountSignals, TxSignalSubscriber } from '../../tx-events';
import { TxSocketEmitter } from './tx-socket.emitter';

/** Relays status signals (not hash signals, which only sync waiters need) and account events to the sockets. */
@Injectable()
export class TxStatusForwarder implements OnApplicationBootstrap, OnModuleDestroy {
  private stop?: () => void;
  private stopAccount?: () => void;

  constructor(
    private readonly signals: TxSignalSubscriber,
    private readonly accountSignals: AccountSignals,
    private readonly emitter: TxSocketEmitter,
  ) {}

  // Awaited during app.init, so the subscription is live before the first client can connect.
  async onApplicationBootstrap(): Promise<void> {
    this.stop = await this.signals.listen(null, (signal) => {
      if (signal.kind === 'status') this.emitter.txStatus(signal.notification);
    });
    this.stopAccount = await this.accountSignals.listen((event) => this.emitter.accountEvent(event));
  }

  onModuleDestroy(): void {
    this.stop?.();
    this.stopAccount?.();
  }
}
