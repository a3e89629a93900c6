import { BullModule } from '@nestjs/bullmq';
import { Module } from '@nestjs/common';
import { QueueConnection } from '../redis/queue-connection';
import { QueueDepthMetrics } from './queue-depth.metrics';

/** BullMQ on the app's Redis or the queue cluster (QueueConnection); feature modules register their queues with `registerQueues`. */
@Module({
  imports: [
    BullModule.forRootAsync({
      inject: [QueueConnection],
      useFactory: (queues: QueueConnection) => ({
        connection: queues.connection(),
        defaultJobOptions: { removeOnComplete: 1000, removeOnFail: 5000 },
      }),
    }),
  ],
  providers: [QueueDepthMetrics],
  exports: [QueueDepthMetrics],
})
export class QueueModule {}
