import { Module } from '@nestjs/common';
import { ConfigModule } from './config/config.module';
import { DatabaseModule } from './database/database.module';
import { AccountsModule } from './modules/accounts/accounts.module';
import { AuthModule } from './modules/auth/auth.module';
import { ChainsModule } from './modules/chains/chains.module';
import { TxSocketModule } from './modules/events/socket/tx-socket.module';
import { HealthModule } from './modules/health/health.module';
import { MetricsModule } from './modules/metrics/metrics.module';
import { PricingModule } from './modules/pricing/pricing.module';
import { RateLimitModule } from './modules/rate-limit/rate-limit.module';
import { RelayWorkerModule } from './modules/relay/relay-worker.module';
import { RelayModule } from './modules/relay/relay.module';
import { VaultWorkerModule } from './modules/vault/vault-worker.module';
import { VaultModule } from './modules/vault/vault.module';
import { QueueModule } from './queue/queue.module';
import { RedisModule } from './redis/redis.module';
import { WebhooksWorkerModule } from './modules/webhooks/webhooks-worker.module';
import { WebhooksModule } from './modules/webhooks/webhooks.module';
import { SwapModule } from './modules/swap/swap.module';
import { GaslessModule } from './modules/gasless/gasless.module';

/** The role is read once at startup: `api` instances run no queue consumers. */
const WORKER_MODULES = process.env.APP_ROLE === 'api' ? [] : [RelayWorkerModule, WebhooksWorkerModule, VaultWorkerModule];

@Module({
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
    RelayModule,
    WebhooksModule,
    VaultModule,
    SwapModule,
    GaslessModule,
    ...(process.env.APP_ROLE === 'worker' ? [] : [TxSocketModule]),
    ...WORKER_MODULES,
  ],
})
export class AppModule {}
