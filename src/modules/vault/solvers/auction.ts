import { RISK_TIER_CEILING, type DepositIntent, type VenueState } from '../domain/vault-types';
import { scoreAllocation, type ScoredAllocation } from './allocation-score';
import type { BidLeg, VaultSolver } from './solver';
import { shownErrorText } from '../../../common/evm/provider-error';

export interface AuctionBid {
  solverId: string;
  legs: BidLeg[];
  /** Null when the bid cannot even be scored (unknown venue, bad shares). */
  score: ScoredAllocation | null;
  rejectedReason: string | null;
}

export interface AuctionResult {
  bids: AuctionBid[];
  winner: (AuctionBid & { score: ScoredAllocation }) | null;
}

/**
 * Collects one bid per solver, rejects bids outside the intent (shares not summing to 10 000,
 * venues above the tier's ceiling or over their deposit limit, net APY under minApyBps), and
 * picks the highest net APY; ties go to the lower risk, then to the earlier solver.
 */
export function runAuction(intent: DepositIntent, venues: readonly VenueState[], solvers: readonly VaultSolver[]): AuctionResult {
  const bids: AuctionBid[] = [];
  for (const solver of solvers) {
    let legs: BidLeg[] | null;
    try {
      legs = solver.bid(intent, venues);
    } catch (err) {
      bids.push({ solverId: solver.id, legs: [], score: null, rejectedReason: `solver failed: ${shownErrorText(err)}` });
      continue;
    }
    if (legs) bids.push(checkBid(intent, venues, solver.id, legs));
  }
  let winner: AuctionResult['winner'] = null;
  for (const bid of bids) {
    if (bid.rejectedReason !== null || bid.score === null) continue;
    const candidate = bid as AuctionBid & { score: ScoredAllocation };
    if (
      !winner ||
      candidate.score.netApy > winner.score.netApy ||
      (candidate.score.netApy === winner.score.netApy && candidate.score.riskScore < winner.score.riskScore)
    ) {
      winner = candidate;
    }
  }
  return { bids, winner };
}

function checkBid(intent: DepositIntent, venues: readonly VenueState[], solverId: string, legs: BidLeg[]): AuctionBid {
  const reject = (reason: string, score: ScoredAllocation | null = null): AuctionBid => ({ solverId, legs, score, rejectedReason: reason });
  if (legs.length === 0) return reject('empty allocation');
  if (legs.some((l) => !Number.isInteger(l.shareBps) || l.shareBps <= 0)) return reject('shares must be positive integers');
  if (legs.reduce((sum, l) => sum + l.shareBps, 0) !== 10_000) return reject('shares do not sum to 10000');
  if (new Set(legs.map((l) => l.venueId)).size !== legs.length) return reject('a venue appears twice');
  const unknown = legs.find((l) => !venues.some((v) => v.venueId === l.venueId));
  if (unknown) return reject(`venue ${unknown.venueId} is not eligible`);
  const score = scoreAllocation(intent.amount, legs, venues);
  const ceiling = RISK_TIER_CEILING[intent.riskTier];
  for (const leg of score.legs) {
    const venue = venues.find((v) => v.venueId === leg.venueId) as VenueState;
    if (venue.riskScore > ceiling) return reject(`venue ${venue.venueId} risk ${venue.riskScore} exceeds the ${intent.riskTier} ceiling ${ceiling}`, score);
    if (leg.amount > venue.maxDeposit) return reject(`venue ${venue.venueId} accepts at most ${venue.maxDeposit}`, score);
  }
  if (score.netApy < intent.minApyBps / 10_000) return reject(`net APY below minApyBps ${intent.minApyBps}`, score);
  return { solverId, legs, score, rejectedReason: null };
}
