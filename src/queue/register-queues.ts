import { BullModule } from '@nestjs/bullmq';
import { DynamicModule } from '@nestjs/common';
import { QueueConnection } from '../redis/queue-connection';
import { QueueName } from './queue-names';

/** BullModule.registerQueue with each queue's prefix (its own hash tag on a cluster); a queue's processor takes the queue's options. */
export function registerQueues(...names: QueueName[]): DynamicModule {
  return BullModule.registerQueueAsync(...names.map((name) => ({ name, inject: [QueueConnection], useFactory: (queues: QueueConnection) => ({ prefix: queues.prefix(name) }) })));
}
