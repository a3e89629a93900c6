import { classifyNodeAnswer } from '../../../../common/evm/node-answer';

/**
 * What a node's answer to eth_sendRawTransaction proves about the transaction and its nonce:
 * the ONE place where node messages are read. The pipeline acts on the proof, never on the text.
 *
 * | outcome | what it proves about the nonce | what the pipeline does |
 * |---|---|---|
 * | `known` | a node holds this very transaction | as sent |
 * | `nonce-used` | some transaction consumed the nonce, ours or another: not which | `NonceFate` decides from the chain, with finality |
 * | `replacement-underpriced` | a pool holds another transaction at this nonce (maybe an earlier one of ours) | keep the nonce; a later replacement bumps more |
 * | `under-base-fee` | this signature is in no pool: priced under the base fee | re-price at the same nonce from fresh fees |
 * | `busy` | not taken (pool full, too many pending from the sender); the nonce is still ours | back-pressure: send the same bytes later, no retry counted |
 * | `unknown` | timeouts, transport and node errors: it may have reached a node | keep the nonce; rebroadcast the same bytes |
 * | `unfunded` | not taken: the relayer key cannot pay | retry later (the nonce is still ours) |
 * | `rejected` | never acceptable as signed (bad fields, intrinsic gas) | fail once nothing of it can land |
 */
export type BroadcastOutcome = 'known' | 'nonce-used' | 'replacement-underpriced' | 'under-base-fee' | 'busy' | 'unknown' | 'unfunded' | 'rejected';

/** The outcome from the one table of node answers (src/common/evm/node-answer.ts). */
export function classifyBroadcastError(err: unknown): BroadcastOutcome {
  const e = (err ?? {}) as { shortMessage?: string; message?: string; error?: { code?: unknown; message?: unknown }; info?: { error?: { code?: unknown } } };
  const text = `${e.shortMessage ?? ''} ${e.message ?? ''} ${typeof e.error?.message === 'string' ? e.error.message : ''}`;
  const code = [e.error?.code, e.info?.error?.code].find((c): c is number => typeof c === 'number') ?? null;
  const answer = classifyNodeAnswer(code, text);
  if (answer.kind === 'transaction') return answer.outcome;
  // A rate-limited provider did not take it: the nonce is still ours, the same bytes go later.
  if (answer.kind === 'limited') return 'busy';
  // Timeouts, resets, 5xx, unparsed answers: the node may have taken it, so nothing is concluded.
  return 'unknown';
}

/** True when the refusal shows this signature in no pool and the nonce unconsumed by it: the same nonce may be signed again. */
export function nonceStillOurs(outcome: BroadcastOutcome): boolean {
  return outcome === 'under-base-fee' || outcome === 'busy' || outcome === 'unfunded';
}
