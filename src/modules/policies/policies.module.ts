import { Module } from '@nestjs/common';
import { AccountsModule } from '../accounts';
import { PoliciesService } from './domain/policies.service';
import { PoliciesController } from './http/policies.controller';
import { PolicyCoreModule } from './policy-core.module';

/** The team's routes: POST/GET /api/policies, GET/PATCH/DELETE /api/policies/{id}, GET /api/policies/{id}/usage. */
@Module({
  imports: [AccountsModule, PolicyCoreModule],
  controllers: [PoliciesController],
  providers: [PoliciesService],
  exports: [PoliciesService],
})
export class PoliciesModule {}
