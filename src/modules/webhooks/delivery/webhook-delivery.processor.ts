import { Processor, WorkerHost } from '@nestjs/bullmq';
import { Logger, OnModuleInit } from '@nestjs/common';
import { DelayedError, Job } from 'bullmq';
import { runWithTrace } from '../../../common/trace/trace-context';
import { runJobTraced } from '../../../common/trace/tracing';
import { AppConfig } from '../../../config/app-config';
import { QUEUES } from '../../../queue/queue-names';
import { DeliveryJob } from './webhook-queue';
import { AccountSlots } from './account-slots';
import { WebhookAttemptService } from './webhook-attempt.service';

/**
 * Thin consumer of the `webhooks` queue. It never fails a job: retries are scheduled from the
 * delivery row (WEBHOOK_RETRY_SCHEDULE_MS), not by BullMQ, so they survive a Redis loss. An
 * account with WEBHOOK_MAX_CONCURRENT_PER_ACCOUNT attempts already running here gets its job
 * put back, delayed, before anything is claimed, so it holds no slot while it waits.
 */
@Processor(QUEUES.webhooks, { lockDuration: 30_000, stalledInterval: 10_000 })
export class WebhookDeliveryProcessor extends WorkerHost implements OnModuleInit {
  private readonly logger = new Logger(WebhookDeliveryProcessor.name);
  private readonly slots: AccountSlots;

  constructor(
    private readonly attempts: WebhookAttemptService,
    private readonly config: AppConfig,
  ) {
    super();
    this.slots = new AccountSlots(config.WEBHOOK_MAX_CONCURRENT_PER_ACCOUNT, config.WEBHOOK_TIMEOUT_MS);
  }

  onModuleInit(): void {
    this.worker.concurrency = this.config.WEBHOOK_CONCURRENCY;
  }

  async process(job: Job<DeliveryJob>, token?: string): Promise<void> {
    const { deliveryId, attemptsMade, userId } = job.data;
    if (userId !== undefined && !this.slots.tryAcquire(userId, deliveryId)) {
      // The same job, later: nothing was claimed, the row still waits with its attempt count.
      await job.moveToDelayed(Date.now() + this.slots.deferMs(userId), token);
      throw new DelayedError();
    }
    try {
      await runJobTraced('webhook.deliver', job.data, { 'webhook.delivery_id': deliveryId, 'webhook.attempt': attemptsMade + 1 }, () =>
        runWithTrace(`webhook-${deliveryId}`, async () => {
          try {
            await this.attempts.attempt(deliveryId, attemptsMade);
          } catch (err) {
            // The row is untouched or leased: the sweep picks it up again.
            this.logger.error(`delivery ${deliveryId}: ${(err as Error).message}`);
          }
        }),
      );
    } finally {
      if (userId !== undefined) this.slots.release(userId);
    }
  }
}
