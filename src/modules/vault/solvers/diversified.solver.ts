import { RISK_TIER_CEILING, type DepositIntent, type VenueState } from '../domain/vault-types';
import { venueNetApy } from './allocation-score';
import type { BidLeg, VaultSolver } from './solver';

/**
 * Spreads the deposit so no venue gets more than `capBps`: fills the venues of the tier in order
 * of their net APY at a capped slice. Large deposits dilute a single venue's yield, which is where
 * spreading wins; with fewer eligible venues than the cap needs it does not bid.
 */
export class DiversifiedSolver implements VaultSolver {
  readonly id = 'diversified';

  constructor(private readonly capBps: number) {}

  bid(intent: DepositIntent, venues: readonly VenueState[]): BidLeg[] | null {
    const ceiling = RISK_TIER_CEILING[intent.riskTier];
    const slice = (intent.amount * BigInt(this.capBps)) / 10_000n;
    const ranked = venues
      .filter((v) => v.riskScore <= ceiling && v.maxDeposit > 0n)
      .sort((a, b) => venueNetApy(b, slice) - venueNetApy(a, slice));
    const legs: BidLeg[] = [];
    let remaining = 10_000;
    for (const venue of ranked) {
      if (remaining === 0) break;
      // What the venue still accepts, in basis points of the deposit.
      const capacityBps = intent.amount === 0n ? 10_000 : Number((venue.maxDeposit * 10_000n) / intent.amount);
      const share = Math.min(this.capBps, remaining, capacityBps);
      if (share <= 0) continue;
      legs.push({ venueId: venue.venueId, shareBps: share });
      remaining -= share;
    }
    return remaining === 0 && legs.length > 1 ? legs : null;
  }
}
