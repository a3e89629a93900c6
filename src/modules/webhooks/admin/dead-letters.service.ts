import { Inject, Injectable, Logger } from '@nestjs/common';
import Redis from 'ioredis';
import { AppError } from '../../../common/errors/app-error';
import { AppConfig } from '../../../config/app-config';
import { REDIS } from '../../../redis/redis.module';
import { AccountsService } from '../../accounts';
import { DeadLetterDto, DeadLetterQueryDto, ReplayedDto } from '../dto/dead-letter.dto';
import { WebhookDeliveryStore } from '../store/webhook-delivery.store';
import { webhookWakeChannel } from '../webhook-wake';

/**
 * The operator's view of deliveries whose retries ran out, and the way to send one again.
 * A replay resets the delivery to a fresh schedule of attempts; a worker's dispatcher picks it
 * up at once (Redis wake) or at its next sweep.
 */
@Injectable()
export class WebhookDeadLetters {
  private readonly logger = new Logger(WebhookDeadLetters.name);

  constructor(
    private readonly deliveries: WebhookDeliveryStore,
    private readonly accounts: AccountsService,
    @Inject(REDIS) private readonly redis: Redis,
    private readonly config: AppConfig,
  ) {}

  async list(query: DeadLetterQueryDto): Promise<DeadLetterDto[]> {
    const userId = query.address ? (await this.accounts.getByAddress(query.address)).id : null;
    const rows = await this.deliveries.deadLetters(userId, query.limit ?? 50);
    return rows.map((r): DeadLetterDto => ({ ...r, createdAt: r.createdAt.toISOString(), deadAt: r.deadAt.toISOString() }));
  }

  /** `userId` limits the replay to that account's dead letters (the team's own replay). */
  async replay(id: string, userId: string | null = null): Promise<ReplayedDto> {
    if (!(await this.deliveries.replay(id, userId))) throw new AppError('RESOURCE_001', `no dead letter with id ${id}`);
    this.logger.log(`dead letter ${id} replayed`);
    await this.redis.publish(webhookWakeChannel(this.config), id).catch((err: Error) => this.logger.warn(`replay wake not sent, the sweep will pick ${id} up: ${err.message}`));
    return { id, status: 'pending' };
  }
}
