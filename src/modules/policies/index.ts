/** What other modules may use of sponsorship policies. */
export { PoliciesModule } from './policies.module';
export { PolicyCoreModule } from './policy-core.module';
export { PoliciesService, toPolicyView } from './domain/policies.service';
export { Sponsorship, GAS_HOLD_DEFAULT_VALID_FOR_MS, policyRefusal } from './domain/sponsorship.service';
export type { SponsorshipClaim, SponsorshipPlan } from './domain/sponsorship.service';
export type { PolicyRefusal, SponsoredCall, SponsorshipPolicy } from './domain/policy';
export { PolicyStore } from './store/policy.store';
export type { SponsoredRow } from './store/policy.store';
export { PolicyDto, PolicyInputDto, PolicyUsageDto } from './dto/policy.dto';
