import { Module } from '@nestjs/common';
import { ConfigModule } from '../config/config.module';
import { DatabaseModule } from '../database/database.module';
import { AccountsModule } from '../modules/accounts/accounts.module';
import { MetricsModule } from '../modules/metrics/metrics.module';
import { RateLimitModule } from '../modules/rate-limit/rate-limit.module';
import { RelayAuditModule } from '../modules/relay/audit/relay-audit.module';
import { WebhookDeadLettersModule } from '../modules/webhooks/webhook-dead-letters.module';
import { RedisModule } from '../redis/redis.module';
import { RelayerKeyStore } from '../modules/relay/store/relayer-key.store';

/**
 * Just what the operator commands need: no HTTP, no queues, no chains (Redis only to wake webhook
 * workers on a replay). RateLimitModule only because AccountsModule's controllers carry its guard.
 */
@Module({
  imports: [ConfigModule, DatabaseModule, RedisModule, RateLimitModule, AccountsModule, WebhookDeadLettersModule],
  // Relayer key states only (relayer_keys): the running services pick a change up within a second.
  providers: [RelayerKeyStore],
})
export class AdminCliModule {}

/** The audit commands also read the chains (probed at start), so only they load them. */
@Module({ imports: [AdminCliModule, MetricsModule, RelayAuditModule] })
export class AdminAuditCliModule {}
