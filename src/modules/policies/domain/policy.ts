import { selectorOf } from '../../accounts';

/** A target of a policy: a contract, optionally limited to some methods (lowercase). */
export interface PolicyTarget {
  address: string;
  /** 4-byte selectors; absent or empty: every method (and plain transfers). */
  selectors?: string[];
}

/** A sponsorship policy as the domain sees it: amounts in micro-USD, gas price in wei, addresses lowercase. */
export interface SponsorshipPolicy {
  id: string;
  userId: string;
  name: string;
  enabled: boolean;
  chainIds: number[] | null;
  targets: PolicyTarget[] | null;
  startsAt: Date | null;
  endsAt: Date | null;
  budgetMicro: bigint | null;
  perEndUser: { maxMicro: bigint | null; maxTxs: number | null; windowSeconds: number } | null;
  allow: string[] | null;
  deny: string[] | null;
  maxGasPriceWei: bigint | null;
  spentMicro: bigint;
  reservedMicro: bigint;
  txCount: number;
  createdAt: Date;
}

/** Why no policy sponsors a submission (extensions.md): the first word of the TRANSACTION_010 message. */
export type PolicyRefusal = 'no_policy_matches' | 'end_user_denied' | 'outside_window' | 'budget_exhausted' | 'end_user_limit';

/** What a policy decides on: the call, whom it is for, and when. */
export interface SponsoredCall {
  chainId: number;
  to: string;
  callData: string;
  /** Lowercase address; null when the submission names none (no endUser, no derived sender). */
  endUser: string | null;
  now: Date;
}

/**
 * How far a refused policy got, in the order the checks run: a policy that matched the call but
 * not the time, or matched both but not the end user, says more about the refusal than one
 * that did not match the call at all. The reported reason is that of the policy that got furthest.
 */
const STATIC_DEPTH: Record<Exclude<PolicyRefusal, 'budget_exhausted' | 'end_user_limit'>, number> = {
  no_policy_matches: 0,
  outside_window: 1,
  end_user_denied: 2,
};

/** The first static check `policy` fails for `call`, or null when only its limits are left to decide. */
export function staticRefusal(policy: SponsorshipPolicy, call: SponsoredCall): keyof typeof STATIC_DEPTH | null {
  if (!matchesCall(policy, call)) return 'no_policy_matches';
  if ((policy.startsAt && call.now < policy.startsAt) || (policy.endsAt && call.now >= policy.endsAt)) return 'outside_window';
  const listed = policy.allow !== null && policy.allow.length > 0;
  // A policy that limits end users cannot sponsor a submission that names none: omitting it would bypass the limits.
  if (call.endUser === null) return listed || policy.perEndUser !== null ? 'end_user_denied' : null;
  if (policy.deny?.includes(call.endUser)) return 'end_user_denied';
  if (listed && !policy.allow!.includes(call.endUser)) return 'end_user_denied';
  return null;
}

function matchesCall(policy: SponsorshipPolicy, call: SponsoredCall): boolean {
  if (policy.chainIds && policy.chainIds.length > 0 && !policy.chainIds.includes(call.chainId)) return false;
  if (!policy.targets || policy.targets.length === 0) return true;
  const to = call.to.toLowerCase();
  const selector = selectorOf(call.callData);
  return policy.targets.some((t) => t.address === to && (!t.selectors || t.selectors.length === 0 || (selector !== null && t.selectors.includes(selector))));
}

/**
 * The enabled policies that may sponsor `call` in their order (their limits decide next, in
 * the reservation), or the reason none may: the reason of the policy that got furthest.
 */
export function candidatesFor(policies: readonly SponsorshipPolicy[], call: SponsoredCall): { candidates: SponsorshipPolicy[]; refusal: PolicyRefusal } {
  const candidates: SponsorshipPolicy[] = [];
  let refusal: keyof typeof STATIC_DEPTH = 'no_policy_matches';
  for (const policy of policies) {
    if (!policy.enabled) continue;
    const reason = staticRefusal(policy, call);
    if (reason === null) candidates.push(policy);
    else if (STATIC_DEPTH[reason] > STATIC_DEPTH[refusal]) refusal = reason;
  }
  return { candidates, refusal };
}
