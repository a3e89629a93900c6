import { Module } from '@nestjs/common';
import { ChainsModule } from '../chains';
import { RelayerWalletsModule } from '../relayer-wallets';
import { DatabaseProbe } from './database-probe.store';
import { HealthController } from './health.controller';

@Module({ imports: [ChainsModule, RelayerWalletsModule], controllers: [HealthController], providers: [DatabaseProbe] })
export class HealthModule {}
