import { Inject, Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import Redis from 'ioredis';
import { DataSource } from 'typeorm';
import { AppError } from '../../../common/errors/app-error';
import { AppConfig } from '../../../config/app-config';
import { returningRows } from '../../../database/returning-rows';
import { REDIS } from '../../../redis/redis.module';
import { AccountsService } from '../../accounts/domain/accounts.service';
import { DeadLetterDto, DeadLetterQueryDto, ReplayedDto } from '../dto/dead-letter.dto';
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
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly accounts: AccountsService,
    @Inject(REDIS) private readonly redis: Redis,
    private readonly config: AppConfig,
  ) {}

  async list(query: DeadLetterQueryDto): Promise<DeadLetterDto[]> {
    const userId = query.address ? (await this.accounts.getByAddress(query.address)).id : null;
    const rows: Array<Record<string, unknown>> = await this.dataSource.query(
      `SELECT d.id::text AS id, d.user_id AS "userId", d.webhook_id AS "webhookId", w.url, d.tx_id AS "txId", e.status AS "txStatus",
              d.attempts, d.last_status_code AS "lastStatusCode", d.last_error AS "lastError", d.created_at AS "createdAt", d.dead_at AS "deadAt"
         FROM webhook_deliveries d JOIN webhooks w ON w.id = d.webhook_id JOIN tx_status_events e ON e.id = d.event_id
        WHERE d.status = 'dead' AND ($1::uuid IS NULL OR d.user_id = $1)
        ORDER BY d.dead_at DESC, d.id DESC LIMIT $2`,
      [userId, query.limit ?? 50],
    );
    return rows.map((r) => ({ ...r, createdAt: (r.createdAt as Date).toISOString(), deadAt: (r.deadAt as Date).toISOString() }) as DeadLetterDto);
  }

  async replay(id: string): Promise<ReplayedDto> {
    const rows = returningRows<{ id: string }>(
      await this.dataSource.query(
        `UPDATE webhook_deliveries SET status = 'pending', attempts = 0, next_attempt_at = now(), dead_at = NULL, updated_at = now()
          WHERE id = $1 AND status = 'dead' RETURNING id::text AS id`,
        [id],
      ),
    );
    if (rows.length === 0) throw new AppError('RESOURCE_001', `no dead letter with id ${id}`);
    this.logger.log(`dead letter ${id} replayed`);
    await this.redis.publish(webhookWakeChannel(this.config), id).catch((err: Error) => this.logger.warn(`replay wake not sent, the sweep will pick ${id} up: ${err.message}`));
    return { id, status: 'pending' };
  }
}
