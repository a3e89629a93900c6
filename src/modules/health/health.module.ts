import { Module } from '@nestjs/common';
import { ChainsModule } from '../chains/chains.module';
import { HealthController } from './health.controller';

@Module({ imports: [ChainsModule], controllers: [HealthController] })
export class HealthModule {}
