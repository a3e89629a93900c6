import { Global, Inject, Module, OnApplicationShutdown } from '@nestjs/common';
import Redis from 'ioredis';
import { AppConfig } from '../config/app-config';
import { QueueConnection } from './queue-connection';

export const REDIS = Symbol('REDIS');

/**
 * One shared command connection; subscribers open their own (a subscribed connection can do nothing else).
 * Global, so it shuts down after every module using it (the queue connection too).
 */
@Global()
@Module({
  providers: [
    {
      provide: REDIS,
      inject: [AppConfig],
      useFactory: (config: AppConfig) =>
        new Redis(config.REDIS_URL, { keyPrefix: `${config.REDIS_PREFIX}:`, maxRetriesPerRequest: 2, enableOfflineQueue: true }),
    },
    QueueConnection,
  ],
  exports: [REDIS, QueueConnection],
})
export class RedisModule implements OnApplicationShutdown {
  constructor(@Inject(REDIS) private readonly redis: Redis) {}

  async onApplicationShutdown(): Promise<void> {
    await this.redis.quit().catch(() => this.redis.disconnect());
  }
}
