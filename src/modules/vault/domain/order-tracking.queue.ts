import { InjectQueue } from '@nestjs/bullmq';
import { Injectable, Logger } from '@nestjs/common';
import { Queue } from 'bullmq';
import { traceCarrier, TraceCarrier } from '../../../common/trace/tracing';
import { QUEUES } from '../../../queue/queue-names';

export interface OrderTrackingJob extends TraceCarrier {
  orderId: string;
  attempt: number;
}

/** Backoff of the durable order check: 1 s, 2 s, 4 s ... capped at 30 s. */
export function trackingDelayMs(attempt: number): number {
  return Math.min(1000 * 2 ** Math.min(attempt, 5), 30_000);
}

/**
 * The durable side of order tracking: one delayed job per check, keyed by order and attempt so
 * a duplicate enqueue runs once. Relay status signals usually settle an order before its job
 * runs; the job is what still does it when a signal is lost.
 */
@Injectable()
export class OrderTrackingQueue {
  private readonly logger = new Logger(OrderTrackingQueue.name);

  constructor(@InjectQueue(QUEUES.orders) private readonly queue: Queue<OrderTrackingJob>) {}

  async schedule(orderId: string, attempt = 0): Promise<void> {
    try {
      await this.queue.add('track', { orderId, attempt, ...traceCarrier() }, { jobId: `track-${orderId}-${attempt}`, delay: trackingDelayMs(attempt), removeOnComplete: true, removeOnFail: 1000 });
    } catch (err) {
      this.logger.warn(`could not schedule tracking of order ${orderId} (a worker restart re-schedules it): ${(err as Error).message}`);
    }
  }
}
