import { Module } from '@nestjs/common';
import { ChainsController } from './chains.controller';
import { ChainHealthService } from './domain/chain-health.service';
import { ChainRegistry } from './domain/chain-registry.service';

@Module({
  controllers: [ChainsController],
  providers: [ChainRegistry, ChainHealthService],
  exports: [ChainRegistry, ChainHealthService],
})
export class ChainsModule {}
