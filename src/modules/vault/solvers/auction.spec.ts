import type { DepositIntent, VenueState } from '../domain/vault-types';
import { runAuction } from './auction';
import { BestSingleVenueSolver } from './best-single.solver';
import { DiversifiedSolver } from './diversified.solver';
import { LowestRiskSolver } from './lowest-risk.solver';
import type { VaultSolver } from './solver';

const TVL = 100_000n * 10n ** 6n;
const venue = (venueId: string, riskScore: number, grossApy: number, feeBps: number, extra: Partial<VenueState> = {}): VenueState => ({
  venueId,
  vault: `0x${venueId.padEnd(40, '0').slice(0, 40)}`,
  asset: '0x' + 'a'.repeat(40),
  riskScore,
  feeBps,
  totalAssets: TVL,
  maxDeposit: 2n ** 255n,
  grossApy,
  ...extra,
});

const VENUES = [venue('steady', 0.2, 0.04, 10), venue('balanced', 0.5, 0.08, 50), venue('max', 0.8, 0.14, 100)];
const SOLVERS: VaultSolver[] = [new BestSingleVenueSolver(), new DiversifiedSolver(6000), new LowestRiskSolver()];
const intent = (amount: bigint, riskTier: DepositIntent['riskTier'] = 'balanced', minApyBps = 0): DepositIntent => ({ amount, riskTier, minApyBps });

describe('deposit auction', () => {
  it('a small balanced deposit goes wholly to the best venue under the 0.6 ceiling', () => {
    const { winner, bids } = runAuction(intent(1_000n * 10n ** 6n), VENUES, SOLVERS);
    expect(winner?.solverId).toBe('best-single');
    expect(winner?.legs).toEqual([{ venueId: 'balanced', shareBps: 10_000 }]);
    // Every solver bid; the winner has the highest net APY of the valid ones.
    expect(bids.map((b) => b.solverId)).toEqual(['best-single', 'diversified', 'lowest-risk']);
    const valid = bids.filter((b) => b.rejectedReason === null);
    expect(Math.max(...valid.map((b) => b.score!.netApy))).toBe(winner!.score.netApy);
    expect(winner!.score.netApy).toBeCloseTo(0.08 * (100_000 / 101_000) - 0.005, 9);
  });

  it('a deposit as large as a venue dilutes it enough that the diversified split wins', () => {
    const { winner } = runAuction(intent(TVL), VENUES, SOLVERS);
    expect(winner?.solverId).toBe('diversified');
    expect(winner?.legs).toEqual([
      { venueId: 'balanced', shareBps: 6000 },
      { venueId: 'steady', shareBps: 4000 },
    ]);
    // 0.6 × (8 % / 1.6 − 0.5 %) + 0.4 × (4 % / 1.4 − 0.1 %)
    expect(winner!.score.netApy).toBeCloseTo(0.6 * (0.08 / 1.6 - 0.005) + 0.4 * (0.04 / 1.4 - 0.001), 9);
    expect(winner!.score.legs.map((l) => l.amount)).toEqual([(TVL * 6n) / 10n, (TVL * 4n) / 10n]);
  });

  it('aggressive reaches the riskiest venue; conservative only the safe one', () => {
    expect(runAuction(intent(10n ** 6n, 'aggressive'), VENUES, SOLVERS).winner?.legs).toEqual([{ venueId: 'max', shareBps: 10_000 }]);
    expect(runAuction(intent(10n ** 6n, 'conservative'), VENUES, SOLVERS).winner?.legs).toEqual([{ venueId: 'steady', shareBps: 10_000 }]);
  });

  it('a tier whose ceiling excludes every venue has no winner', () => {
    const risky = VENUES.map((v) => ({ ...v, riskScore: v.riskScore + 0.2 }));
    expect(runAuction(intent(10n ** 6n, 'conservative'), risky, SOLVERS).winner).toBeNull();
  });

  it('minApyBps above every net APY has no winner; below, the lowest-risk solver meets it', () => {
    expect(runAuction(intent(10n ** 6n, 'aggressive', 2_000), VENUES, SOLVERS).winner).toBeNull();
    const { bids } = runAuction(intent(10n ** 6n, 'aggressive', 500), VENUES, SOLVERS);
    expect(bids.find((b) => b.solverId === 'lowest-risk')?.legs).toEqual([{ venueId: 'balanced', shareBps: 10_000 }]);
  });

  it('rejects a bid that breaks the rules even if its APY is highest', () => {
    const cheat: VaultSolver = { id: 'cheat', bid: () => [{ venueId: 'max', shareBps: 10_000 }] };
    const overfull: VaultSolver = { id: 'overfull', bid: () => [{ venueId: 'balanced', shareBps: 9_000 }] };
    const { winner, bids } = runAuction(intent(10n ** 6n), VENUES, [cheat, overfull, ...SOLVERS]);
    expect(bids[0].rejectedReason).toContain('exceeds the balanced ceiling');
    expect(bids[1].rejectedReason).toBe('shares do not sum to 10000');
    expect(winner?.solverId).toBe('best-single');
  });

  it('a venue at its deposit limit is skipped by the solvers', () => {
    const venues = [venue('full', 0.1, 0.3, 0, { maxDeposit: 0n }), ...VENUES];
    expect(runAuction(intent(10n ** 6n, 'conservative'), venues, SOLVERS).winner?.legs).toEqual([{ venueId: 'steady', shareBps: 10_000 }]);
  });
});
