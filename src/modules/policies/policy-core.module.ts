import { Module } from '@nestjs/common';
import { Sponsorship } from './domain/sponsorship.service';
import { PolicyStore } from './store/policy.store';

/** What the relay's submission and settlement use: the policies' store and the sponsorship decision. */
@Module({
  providers: [PolicyStore, Sponsorship],
  exports: [PolicyStore, Sponsorship],
})
export class PolicyCoreModule {}
