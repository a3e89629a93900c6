/** What other modules may use of pricing. */
export { PricingModule } from './pricing.module';
export { PricingService } from './pricing.service';
