import { BullModule } from '@nestjs/bullmq';
import { Module } from '@nestjs/common';
import { AppConfig } from '../config/app-config';
import { QueueDepthMetrics } from './queue-depth.metrics';

/** BullMQ on the app's Redis; feature modules register their queues from QUEUES. */
@Module({
  imports: [
    BullModule.forRootAsync({
      inject: [AppConfig],
      useFactory: (config: AppConfig) => ({
        connection: { url: config.REDIS_URL, maxRetriesPerRequest: null },
        prefix: `${config.REDIS_PREFIX}:bull`,
        defaultJobOptions: { removeOnComplete: 1000, removeOnFail: 5000 },
      }),
    }),
  ],
  providers: [QueueDepthMetrics],
  exports: [QueueDepthMetrics],
})
export class QueueModule {}
