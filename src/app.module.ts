import { DynamicModule, Module } from '@nestjs/common';
import { ConfigModule } from './config/config.module';
import type { AppConfig } from './config/app-config';
import { DatabaseModule } from './database/database.module';
import { AccountsModule } from './modules/accounts';
import { AuthModule } from './modules/auth/auth.module';
import { BridgeModule, BridgeWorkerModule } from './modules/bridge';
import { ChainsModule } from './modules/chains';
import { DashboardModule } from './modules/dashboard';
import { FundingModule, FundingWorkerModule } from './modules/funding';
import { TxSocketModule } from './modules/events';
import { GaslessModule, GaslessWorkerModule } from './modules/gasless';
import { IdempotencyModule } from './modules/idempotency';
import { HealthModule } from './modules/health';
import { MetricsModule } from './modules/metrics/metrics.module';
import { PartitionsModule } from './modules/partitions';
import { PoliciesModule } from './modules/policies';
import { PricingModule } from './modules/pricing';
import { RateLimitModule } from './modules/rate-limit';
import { RelayModule, RelayWorkerModule } from './modules/relay';
import { SwapModule } from './modules/swap';
import { VaultModule, VaultWorkerModule } from './modules/vault';
import { WebhooksModule } from './modules/webhooks/webhooks.module';
import { WebhooksWorkerModule } from './modules/webhooks/webhooks-worker.module';
import { QueueModule } from './queue/queue.module';
import { RedisModule } from './redis/redis.module';

/** What serves clients besides the HTTP controllers: the Socket.IO push. */
@Module({ imports: [TxSocketModule] })
export class ApiModule {}

/** Queue consumers, receipt tracking, reconcilers, schedulers, outcome listeners and partition upkeep. */
@Module({ imports: [RelayWorkerModule, WebhooksWorkerModule, VaultWorkerModule, GaslessWorkerModule, FundingWorkerModule, BridgeWorkerModule, PartitionsModule] })
export class WorkerModule {}

/**
 * The application for one role of the validated config: `api` serves HTTP and sockets and runs
 * no queue consumers, `worker` runs the consumers and serves nothing, `all` does both. Every
 * role has the features' modules (a worker enqueues and reads through the same services).
 */
@Module({})
export class AppModule {
  static forRole(role: AppConfig['APP_ROLE']): DynamicModule {
    return {
      module: AppModule,
      imports: [
        ConfigModule,
        DatabaseModule,
        RedisModule,
        QueueModule,
        MetricsModule,
        AccountsModule,
        AuthModule,
        ChainsModule,
        PricingModule,
        HealthModule,
        RateLimitModule,
        IdempotencyModule,
        RelayModule,
        WebhooksModule,
        PoliciesModule,
        VaultModule,
        SwapModule,
        GaslessModule,
        DashboardModule,
        FundingModule,
        BridgeModule,
        ...(role === 'worker' ? [] : [ApiModule]),
        ...(role === 'api' ? [] : [WorkerModule]),
      ],
    };
  }
}
