import { Inject, Injectable, Logger, OnModuleDestroy } from '@nestjs/common';
import Redis from 'ioredis';
import { AppConfig } from '../../config/app-config';
import { REDIS } from '../../redis/redis.module';
import type { AccountEvent } from './account-event';

type Listener = (event: AccountEvent) => void;

/**
 * Account events over Redis after commit (sockets, the webhook dispatcher's wake-up); the
 * outbox row written with the event is the durable copy, this is only the fast path.
 */
@Injectable()
export class AccountSignals implements OnModuleDestroy {
  private readonly logger = new Logger(AccountSignals.name);
  private readonly listeners = new Set<Listener>();
  private connection?: Redis;
  private ready?: Promise<void>;

  constructor(
    @Inject(REDIS) private readonly redis: Redis,
    private readonly config: AppConfig,
  ) {}

  async publish(event: AccountEvent): Promise<void> {
    try {
      await this.redis.publish(this.channel(), JSON.stringify(event));
    } catch (err) {
      this.logger.warn(`could not publish ${event.event} for ${event.userId}: ${(err as Error).message}`);
    }
  }

  /** Resolves once the subscription is live; returns the unsubscribe function. */
  async listen(listener: Listener): Promise<() => void> {
    if (!this.ready) {
      const connection = new Redis(this.config.REDIS_URL, { maxRetriesPerRequest: null });
      this.connection = connection;
      connection.on('message', (_channel: string, message: string) => this.dispatch(message));
      connection.on('error', (err: Error) => this.logger.warn(`account signal subscription: ${err.message}`));
      this.ready = connection.subscribe(this.channel()).then(() => undefined);
    }
    await this.ready;
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  async onModuleDestroy(): Promise<void> {
    await this.connection?.quit().catch(() => this.connection?.disconnect());
  }

  private dispatch(message: string): void {
    let event: AccountEvent;
    try {
      event = JSON.parse(message) as AccountEvent;
    } catch {
      return;
    }
    for (const listener of this.listeners) {
      try {
        listener(event);
      } catch (err) {
        this.logger.warn(`account signal listener failed: ${(err as Error).message}`);
      }
    }
  }

  /** The shared connection prefixes keys, not channels. */
  private channel(): string {
    return `${this.config.REDIS_PREFIX}:account-signals`;
  }
}
