/** decisions.md: tiers and their risk-score ceilings. */
export const RISK_TIERS = ['conservative', 'balanced', 'aggressive'] as const;
export type RiskTier = (typeof RISK_TIERS)[number];
export const RISK_TIER_CEILING: Readonly<Record<RiskTier, number>> = { conservative: 0.3, balanced: 0.6, aggressive: 1.0 };

/** One venue's part of an allocation, as quoted and as stored. */
export interface AllocationLeg {
  venueId: string;
  vault: string;
  shareBps: number;
  /** Asset units this leg deposits (or, for a withdrawal, the shares it redeems). */
  amount: string;
}

/** One call of the settlement batch, run from the user's EOA by the delegate. */
export interface PlannedCall {
  target: string;
  value: string;
  data: string;
}

/** A configured venue plus what was just read about it; only healthy venues with an APY become this. */
export interface VenueState {
  venueId: string;
  vault: string;
  asset: string;
  riskScore: number;
  feeBps: number;
  totalAssets: bigint;
  /** What the vault accepts from this user right now. */
  maxDeposit: bigint;
  /** Measured from share-price samples, before fees; a fraction (0.05 = 5 %). */
  grossApy: number;
}

export interface DepositIntent {
  amount: bigint;
  riskTier: RiskTier;
  minApyBps: number;
}

/** Shares a mined order moved in one vault, and the assets they were worth (a position's cost basis). */
export interface ShareMovement {
  vault: string;
  venueId: string;
  asset: string;
  assets: bigint;
  shares: bigint;
}
