import { Injectable, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { TxSignalSubscriber } from '../../tx-events';
import { TxSocketEmitter } from './tx-socket.emitter';

/** Relays status signals (not hash signals, which only sync waiters need) to the sockets. */
@Injectable()
export class TxStatusForwarder implements OnApplicationBootstrap, OnModuleDestroy {
  private stop?: () => void;

  constructor(
    private readonly signals: TxSignalSubscriber,
    private readonly emitter: TxSocketEmitter,
  ) {}

  // Awaited during app.init, so the subscription is live before the first client can connect.
  async onApplicationBootstrap(): Promise<void> {
    this.stop = await this.signals.listen(null, (signal) => {
      if (signal.kind === 'status') this.emitter.txStatus(signal.notification);
    });
  }

  onModuleDestroy(): void {
    this.stop?.();
  }
}
