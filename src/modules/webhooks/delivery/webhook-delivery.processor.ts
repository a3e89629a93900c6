import { Processor, WorkerHost } from '@nestjs/bullmq';
import { Logger, OnModuleInit } from '@nestjs/common';
import { Job } from 'bullmq';
import { runWithTrace } from '../../../common/trace/trace-context';
import { AppConfig } from '../../../config/app-config';
import { QUEUES } from '../../../queue/queue-names';
import { DeliveryJob } from './webhook-queue';
import { WebhookAttemptService } from './webhook-attempt.service';

/**
 * Thin consumer of the `webhooks` queue. It never throws: retries are scheduled from the
 * delivery row (WEBHOOK_RETRY_SCHEDULE_MS), not by BullMQ, so they survive a Redis loss.
 */
@Processor(QUEUES.webhooks, { lockDuration: 30_000, stalledInterval: 10_000 })
export class WebhookDeliveryProcessor extends WorkerHost implements OnModuleInit {
  private readonly logger = new Logger(WebhookDeliveryProcessor.name);

  constructor(
    private readonly attempts: WebhookAttemptService,
    private readonly config: AppConfig,
  ) {
    super();
  }

  onModuleInit(): void {
    this.worker.concurrency = this.config.WEBHOOK_CONCURRENCY;
  }

  async process(job: Job<DeliveryJob>): Promise<void> {
    const { deliveryId, attemptsMade } = job.data;
    await runWithTrace(`webhook-${deliveryId}`, async () => {
      try {
        await this.attempts.attempt(deliveryId, attemptsMade);
      } catch (err) {
        // The row is untouched or leased: the sweep picks it up again.
        this.logger.error(`delivery ${deliveryId}: ${(err as Error).message}`);
      }
    });
  }
}
