import { Processor, WorkerHost } from '@nestjs/bullmq';
import { Logger, OnApplicationBootstrap } from '@nestjs/common';
import { Job } from 'bullmq';
import { runWithTrace } from '../../../common/trace/trace-context';
import { runJobTraced } from '../../../common/trace/tracing';
import { QUEUES } from '../../../queue/queue-names';
import { PeriodicJobs } from '../../liveness';
import { OrderTracker } from '../domain/order-tracker.service';
import { OrderTrackingJob, OrderTrackingQueue } from '../domain/order-tracking.queue';
import { VaultOrderStore } from '../store/vault-order.store';

/** Durable order tracking: checks an order, and while it is still relaying schedules the next check. */
@Processor(QUEUES.orders)
export class OrderTrackingProcessor extends WorkerHost implements OnApplicationBootstrap {
  private readonly logger = new Logger(OrderTrackingProcessor.name);

  constructor(
    private readonly tracker: OrderTracker,
    private readonly queue: OrderTrackingQueue,
    private readonly orders: VaultOrderStore,
    private readonly periodic: PeriodicJobs,
  ) {
    super();
  }

  /** Redis may have lost the jobs: every relaying order gets a check after a worker starts and after Redis loses its data. */
  async onApplicationBootstrap(): Promise<void> {
    await this.rescheduleRelaying();
    this.periodic.onRedisLoss('vault-orders', () => this.rescheduleRelaying());
  }

  private async rescheduleRelaying(): Promise<void> {
    for (const id of await this.orders.relayingIds()) await this.queue.schedule(id, 0);
  }

  async process(job: Job<OrderTrackingJob>): Promise<void> {
    const { orderId, attempt } = job.data;
    await runJobTraced('vault.order.track', job.data, { 'vault.order_id': orderId, 'vault.attempt': attempt }, () => this.track(orderId, attempt));
  }

  private async track(orderId: string, attempt: number): Promise<void> {
    await runWithTrace(`order-${orderId}`, async () => {
      let status: string;
      try {
        status = await this.tracker.track(orderId);
      } catch (err) {
        this.logger.warn(`tracking order ${orderId} failed, will retry: ${(err as Error).message}`);
        status = 'relaying';
      }
      if (status === 'relaying') await this.queue.schedule(orderId, attempt + 1);
    });
  }
}
