import { Module } from '@nestjs/common';
import { AccountsModule, AdminGuard } from '../accounts';
import { ChainsModule } from '../chains';
import { RelayerWalletsModule } from '../relayer-wallets';
import { DatabaseProbe } from './database-probe.store';
import { HealthReport } from './health-report.service';
import { AdminHealthController } from './admin-health.controller';
import { HealthController } from './health.controller';
import { OpsListener } from './ops-listener.service';
import { ProbesController } from './probes.controller';
import { Readiness } from './readiness.service';

@Module({
  imports: [AccountsModule, ChainsModule, RelayerWalletsModule],
  controllers: [HealthController, AdminHealthController, ProbesController],
  providers: [DatabaseProbe, HealthReport, AdminGuard, Readiness, OpsListener],
  exports: [OpsListener],
})
export class HealthModule {}
