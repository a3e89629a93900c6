import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { AppError } from '../../../common/errors/app-error';
import { microToUsd } from '../../../common/money/usd';
import { PolicyStore } from '../store/policy.store';
import { candidatesFor, PolicyRefusal, SponsoredCall, SponsorshipPolicy } from './policy';

/** How long a transaction held for gas price waits by default (extensions.md: 600 s after acceptance). */
export const GAS_HOLD_DEFAULT_VALID_FOR_MS = 600_000;

/** The enabled policies that may sponsor a submission, decided before anything is estimated into a reservation. */
export interface SponsorshipPlan {
  candidates: SponsorshipPolicy[];
  endUser: string | null;
  now: Date;
}

/** What the sponsoring policy counted for a transaction (written on its row). */
export interface SponsorshipClaim {
  policyId: string;
  endUser: string | null;
  reservedMicro: bigint;
  /** The end user's window it was counted in; null without an end user. */
  windowStart: Date | null;
  maxGasPriceWei: bigint | null;
}

export function policyRefusal(reason: PolicyRefusal, detail: string): AppError {
  return new AppError('TRANSACTION_010', `${reason}: ${detail}`);
}

const DETAIL: Record<PolicyRefusal, string> = {
  no_policy_matches: 'no enabled policy of the account covers this chain, target and method',
  outside_window: 'the policies covering this call are not active now (startsAt/endsAt)',
  end_user_denied: 'the end user is not allowed by the policies covering this call',
  budget_exhausted: 'the budget of the policies covering this call does not cover the estimated cost',
  end_user_limit: "the end user's limit for its current window does not allow this transaction",
};

/**
 * Sponsorship policies in the submission path. `plan` (before the reservation) picks the
 * enabled policies whose chain, targets, time window and allow/deny lists match, or refuses
 * with the reason; `claim` (inside the reservation's database transaction) counts the
 * reservation on the first of them whose budget and per-end-user limits hold. An account with
 * no enabled policy gets no plan and sponsors as it always did.
 */
@Injectable()
export class Sponsorship {
  constructor(private readonly store: PolicyStore) {}

  async plan(userId: string, call: SponsoredCall): Promise<SponsorshipPlan | null> {
    const policies = await this.store.listOf(userId, true);
    if (policies.length === 0) return null;
    const { candidates, refusal } = candidatesFor(policies, call);
    if (candidates.length === 0) throw policyRefusal(refusal, `${DETAIL[refusal]} (end user ${call.endUser ?? 'none given'})`);
    return { candidates, endUser: call.endUser, now: call.now };
  }

  /**
   * Each try runs under a savepoint, so a policy whose budget held but whose end-user cap did
   * not leaves nothing counted; the caller's transaction then reserves on the account, and a
   * refusal there rolls the claim back with it.
   */
  async claim(em: EntityManager, plan: SponsorshipPlan, costMicro: bigint): Promise<SponsorshipClaim> {
    let first: PolicyRefusal | null = null;
    for (const policy of plan.candidates) {
      await em.query('SAVEPOINT sponsorship_claim');
      let refused: PolicyRefusal | null = null;
      if (!(await this.store.claimBudget(em, policy.id, costMicro))) refused = 'budget_exhausted';
      // Without an end user only policies that do not limit end users are candidates (staticRefusal).
      const windowStart = refused || plan.endUser === null ? null : await this.store.claimEndUser(em, policy, plan.endUser, costMicro, plan.now);
      if (!refused && plan.endUser !== null && !windowStart) refused = 'end_user_limit';
      if (refused) {
        await em.query('ROLLBACK TO SAVEPOINT sponsorship_claim');
        first ??= refused;
        continue;
      }
      await em.query('RELEASE SAVEPOINT sponsorship_claim');
      return { policyId: policy.id, endUser: plan.endUser, reservedMicro: costMicro, windowStart, maxGasPriceWei: policy.maxGasPriceWei };
    }
    const reason = first ?? 'budget_exhausted';
    throw policyRefusal(reason, `${DETAIL[reason]} (estimated ${microToUsd(costMicro)} USD, end user ${plan.endUser ?? 'none given'})`);
  }
}
