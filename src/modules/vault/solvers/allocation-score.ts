import { dilutedApy } from '../domain/apy-math';
import type { VenueState } from '../domain/vault-types';
import type { BidLeg } from './solver';

export interface ScoredLeg extends BidLeg {
  vault: string;
  amount: bigint;
}

export interface ScoredAllocation {
  legs: ScoredLeg[];
  /** Share-weighted, after the deposit's own dilution; fractions. */
  grossApy: number;
  netApy: number;
  feeBps: number;
  riskScore: number;
}

/** Splits `amount` by basis points; rounding dust goes to the largest leg so the legs add up exactly. */
export function splitAmount(amount: bigint, legs: readonly BidLeg[]): bigint[] {
  const parts = legs.map((leg) => (amount * BigInt(leg.shareBps)) / 10_000n);
  const dust = amount - parts.reduce((a, b) => a + b, 0n);
  if (parts.length > 0) {
    const largest = legs.reduce((best, leg, i) => (leg.shareBps > legs[best].shareBps ? i : best), 0);
    parts[largest] += dust;
  }
  return parts;
}

/** Net APY of one venue for a deposit of `amount` into it: gross after dilution minus the venue fee. */
export function venueNetApy(venue: VenueState, amount: bigint): number {
  return dilutedApy(venue.grossApy, venue.totalAssets, amount) - venue.feeBps / 10_000;
}

/** What the user would earn with this allocation of `amount`; legs must name venues in `venues`. */
export function scoreAllocation(amount: bigint, legs: readonly BidLeg[], venues: readonly VenueState[]): ScoredAllocation {
  const parts = splitAmount(amount, legs);
  let grossApy = 0;
  let netApy = 0;
  let fee = 0;
  let risk = 0;
  const scored = legs.map((leg, i) => {
    const venue = venues.find((v) => v.venueId === leg.venueId);
    if (!venue) throw new Error(`unknown venue ${leg.venueId}`);
    const weight = leg.shareBps / 10_000;
    const gross = dilutedApy(venue.grossApy, venue.totalAssets, parts[i]);
    grossApy += weight * gross;
    netApy += weight * (gross - venue.feeBps / 10_000);
    fee += weight * venue.feeBps;
    risk += weight * venue.riskScore;
    return { ...leg, vault: venue.vault, amount: parts[i] };
  });
  return { legs: scored, grossApy, netApy, feeBps: Math.round(fee), riskScore: risk };
}
