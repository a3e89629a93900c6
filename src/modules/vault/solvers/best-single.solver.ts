import { RISK_TIER_CEILING, type DepositIntent, type VenueState } from '../domain/vault-types';
import { venueNetApy } from './allocation-score';
import type { BidLeg, VaultSolver } from './solver';

/** Everything into the one venue of the tier with the highest net APY for this deposit. */
export class BestSingleVenueSolver implements VaultSolver {
  readonly id = 'best-single';

  bid(intent: DepositIntent, venues: readonly VenueState[]): BidLeg[] | null {
    const ceiling = RISK_TIER_CEILING[intent.riskTier];
    const candidates = venues.filter((v) => v.riskScore <= ceiling && v.maxDeposit >= intent.amount);
    if (candidates.length === 0) return null;
    const best = candidates.reduce((a, b) => (venueNetApy(b, intent.amount) > venueNetApy(a, intent.amount) ? b : a));
    return [{ venueId: best.venueId, shareBps: 10_000 }];
  }
}
