import type { DepositIntent, VenueState } from '../domain/vault-types';

/** A solver's proposal: venue shares in basis points that sum to 10 000. */
export interface BidLeg {
  venueId: string;
  shareBps: number;
}

/**
 * One bidder in the deposit auction. Solvers see the intent and the healthy venues of the asset
 * (with measured APYs) and answer with an allocation, or null when they have nothing to offer.
 * The auction re-checks and scores every bid itself, so a solver cannot win with a bad one.
 */
export interface VaultSolver {
  readonly id: string;
  bid(intent: DepositIntent, venues: readonly VenueState[]): BidLeg[] | null;
}

export const VAULT_SOLVERS = Symbol('VAULT_SOLVERS');
