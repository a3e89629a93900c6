import { RISK_TIER_CEILING, type DepositIntent, type VenueState } from '../domain/vault-types';
import { venueNetApy } from './allocation-score';
import type { BidLeg, VaultSolver } from './solver';

/** The safest single venue that still meets minApyBps after fees and dilution. */
export class LowestRiskSolver implements VaultSolver {
  readonly id = 'lowest-risk';

  bid(intent: DepositIntent, venues: readonly VenueState[]): BidLeg[] | null {
    const ceiling = RISK_TIER_CEILING[intent.riskTier];
    const floor = intent.minApyBps / 10_000;
    const candidates = venues
      .filter((v) => v.riskScore <= ceiling && v.maxDeposit >= intent.amount && venueNetApy(v, intent.amount) >= floor)
      .sort((a, b) => a.riskScore - b.riskScore || venueNetApy(b, intent.amount) - venueNetApy(a, intent.amount));
    return candidates.length > 0 ? [{ venueId: candidates[0].venueId, shareBps: 10_000 }] : null;
  }
}
