import { Module } from '@nestjs/common';
import { ChainsModule } from '../chains';
import { DatabaseProbe } from './database-probe.store';
import { HealthController } from './health.controller';

@Module({ imports: [ChainsModule], controllers: [HealthController], providers: [DatabaseProbe] })
export class HealthModule {}
