import { InjectQueue } from '@nestjs/bullmq';
import { Injectable, Logger } from '@nestjs/common';
import { Queue } from 'bullmq';
import { traceCarrier, TraceCarrier } from '../../../common/trace/tracing';
import { QUEUES } from '../../../queue/queue-names';

/** `traceparent`: the trace of whoever enqueued the attempt (tracing on). */
export interface DeliveryJob extends TraceCarrier {
  deliveryId: string;
  /** Attempts already made; the job makes the next one only if the row still says so. */
  attemptsMade: number;
  /** The delivery's account, for its share of the worker's slots (absent on jobs queued before it was added). */
  userId?: string;
}

/**
 * Attempt jobs keyed by delivery and attempt number, so the dispatcher, the chain hand-off and
 * the sweep can all enqueue the same attempt and it runs once. Jobs are removed when done:
 * the delivery row, not Redis, is the record.
 */
@Injectable()
export class WebhookQueue {
  private readonly logger = new Logger(WebhookQueue.name);

  constructor(@InjectQueue(QUEUES.webhooks) private readonly queue: Queue<DeliveryJob>) {}

  async enqueue(deliveryId: string, attemptsMade: number, userId: string, delayMs = 0): Promise<void> {
    try {
      await this.queue.add('deliver', { deliveryId, attemptsMade, userId, ...traceCarrier() }, { jobId: `d${deliveryId}-a${attemptsMade}`, delay: Math.max(0, delayMs), removeOnComplete: true, removeOnFail: true });
    } catch (err) {
      this.logger.warn(`could not enqueue delivery ${deliveryId}, the sweep will: ${(err as Error).message}`);
    }
  }
}
