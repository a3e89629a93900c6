/** What other modules may use of pricing. */
export { PricingModule } from './pricing.module';
export { PricingService, recordedPrice } from './pricing.service';
export type { NativePrice } from './pricing.service';
