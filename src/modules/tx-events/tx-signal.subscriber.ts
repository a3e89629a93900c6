import { Injectable, Logger, OnModuleDestroy } from '@nestjs/common';
import Redis from 'ioredis';
import { AppConfig } from '../../config/app-config';
import { TxSignal, TxSignalMessage } from './tx-notification';
import { txSignalChannel } from './tx-status.publisher';

type Listener = (signal: TxSignal) => void;

/**
 * One Redis subscription per process, shared by every listener; listeners register per
 * transaction id (or for all) and are called for each signal that concerns them.
 */
@Injectable()
export class TxSignalSubscriber implements OnModuleDestroy {
  private readonly logger = new Logger(TxSignalSubscriber.name);
  private readonly byTx = new Map<string, Set<Listener>>();
  private readonly all = new Set<Listener>();
  private connection?: Redis;
  private ready?: Promise<void>;

  constructor(private readonly config: AppConfig) {}

  /** Resolves once the subscription is live, so a caller can subscribe before reading state. */
  async listen(txId: string | null, listener: Listener): Promise<() => void> {
    await this.ensureSubscribed();
    const set = txId === null ? this.all : this.byTx.get(txId) ?? new Set<Listener>();
    set.add(listener);
    if (txId !== null) this.byTx.set(txId, set);
    return () => {
      set.delete(listener);
      if (txId !== null && set.size === 0) this.byTx.delete(txId);
    };
  }

  async onModuleDestroy(): Promise<void> {
    await this.connection?.quit().catch(() => this.connection?.disconnect());
  }

  private ensureSubscribed(): Promise<void> {
    if (!this.ready) {
      const connection = new Redis(this.config.REDIS_URL, { maxRetriesPerRequest: null });
      this.connection = connection;
      connection.on('message', (_channel: string, message: string) => this.dispatch(message));
      connection.on('error', (err: Error) => this.logger.warn(`tx signal subscription: ${err.message}`));
      this.ready = connection.subscribe(txSignalChannel(this.config)).then(() => undefined);
    }
    return this.ready;
  }

  /** A message is a signal and those published with it (`more`), delivered in that order. */
  private dispatch(message: string): void {
    let parsed: TxSignalMessage;
    try {
      parsed = JSON.parse(message) as TxSignalMessage;
    } catch {
      return;
    }
    const { more, ...first } = parsed ?? {};
    this.deliver(first as TxSignal);
    if (Array.isArray(more)) for (const signal of more) this.deliver(signal);
  }

  private deliver(signal: TxSignal): void {
    if (!signal?.notification) return;
    for (const listener of [...this.all, ...(this.byTx.get(signal.notification.txId) ?? [])]) {
      try {
        listener(signal);
      } catch (err) {
        this.logger.warn(`tx signal listener failed: ${(err as Error).message}`);
      }
    }
  }
}
