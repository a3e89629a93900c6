import { Module } from '@nestjs/common';
import { RelayModule } from '../relay';
import { PlanExecutionService } from './domain/plan-execution.service';
import { VaultOrdersService } from './domain/vault-orders.service';
import { VaultQuotesService } from './domain/vault-quotes.service';
import { PositionValuesService } from './positions/position-values.service';
import { PositionsController } from './positions/positions.controller';
import { VaultController } from './vault.controller';
import { VaultCoreModule } from './vault-core.module';

/** The /v1 vault API; it relays settlements through the relay's SubmissionService. */
@Module({
  imports: [VaultCoreModule, RelayModule],
  controllers: [VaultController, PositionsController],
  providers: [VaultQuotesService, PlanExecutionService, VaultOrdersService, PositionValuesService],
})
export class VaultModule {}
