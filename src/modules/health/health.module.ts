import { Module } from '@nestjs/common';
import { AccountsModule, AdminGuard } from '../accounts';
import { ChainsModule } from '../chains';
import { RelayerWalletsModule } from '../relayer-wallets';
import { DatabaseProbe } from './database-probe.store';
import { HealthReport } from './health-report.service';
import { AdminHealthController } from './admin-health.controller';
import { HealthController } from './health.controller';

@Module({ imports: [AccountsModule, ChainsModule, RelayerWalletsModule], controllers: [HealthController, AdminHealthController], providers: [DatabaseProbe, HealthReport, AdminGuard] })
export class HealthModule {}
