import type { TxOutcome } from '../../../common/evm/node-answer';

/**
 * Which send put the bytes on the wire:
 * - `first`: the first signature at a freshly claimed nonce;
 * - `resend`: the stored bytes of a relay-signed row again (a retry, a recovery, a lost pool);
 * - `user-signed`: the stored bytes of a funding-signed row (the relay cannot sign them again);
 * - `replacement`: a new signature at the row's nonce (a re-price, a speed-up, a stuck row);
 * - `cancel`: a 0-value self-transfer at the row's nonce.
 */
export type BroadcastJob = 'first' | 'resend' | 'user-signed' | 'replacement' | 'cancel';

/**
 * What the pipeline does with a node's answer:
 * - `sent`: a node holds it: track it (each job follows its own sent path);
 * - `ask-fate`: the nonce is consumed; `NonceFate` decides from the chain what consumed it;
 * - `watch`: a pool holds another transaction at the nonce: keep the nonce, watch every hash;
 * - `hold`: the node's pool is full for the key: the same bytes later, no retry spent;
 * - `reprice`: this signature is in no pool, priced under the base fee: sign the same nonce again
 *   from fresh fees (a retry when the cap or the reservation allows none);
 * - `fail`: never acceptable as signed; `fillNonce` when the nonce was claimed for it just now and
 *   nothing else of the row holds it, so a filler keeps the key's later nonces moving;
 * - `retry`: nothing concluded (timeouts, an unfunded key, a refusal the job cannot act on): the
 *   account's retry policy applies.
 */
export type Reaction =
  | { kind: 'sent' }
  | { kind: 'ask-fate' }
  | { kind: 'watch' }
  | { kind: 'hold' }
  | { kind: 'reprice' }
  | { kind: 'fail'; fillNonce: boolean }
  | { kind: 'retry' };

/** A node's answer as `ChainIo.broadcast` gives it (`pipeline/node/broadcast-error.ts`): taken, or what the refusal proves. */
export type NodeReply = 'sent' | TxOutcome | 'unknown';

const SENT: Reaction = { kind: 'sent' };
const ASK_FATE: Reaction = { kind: 'ask-fate' };
const WATCH: Reaction = { kind: 'watch' };
const HOLD: Reaction = { kind: 'hold' };
const REPRICE: Reaction = { kind: 'reprice' };
const RETRY: Reaction = { kind: 'retry' };
const FAIL: Reaction = { kind: 'fail', fillNonce: false };
const FAIL_AND_FILL: Reaction = { kind: 'fail', fillNonce: true };

/**
 * The ONE table of reactions: a row per node answer, a column per job. Adding an outcome is one
 * row here (the type checker names the row that is missing); the jobs only carry it out.
 */
const TABLE: Record<NodeReply, Record<BroadcastJob, Reaction>> = {
  sent: { first: SENT, resend: SENT, 'user-signed': SENT, replacement: SENT, cancel: SENT },
  known: { first: SENT, resend: SENT, 'user-signed': SENT, replacement: SENT, cancel: SENT },
  'nonce-used': { first: ASK_FATE, resend: ASK_FATE, 'user-signed': ASK_FATE, replacement: ASK_FATE, cancel: ASK_FATE },
  'replacement-underpriced': { first: WATCH, resend: WATCH, 'user-signed': WATCH, replacement: WATCH, cancel: WATCH },
  busy: { first: HOLD, resend: HOLD, 'user-signed': HOLD, replacement: HOLD, cancel: HOLD },
  // Re-priced once per attempt: a replacement refused the same way waits for the next attempt.
  'under-base-fee': { first: REPRICE, resend: REPRICE, 'user-signed': RETRY, replacement: RETRY, cancel: RETRY },
  // Only the first signature's nonce is filled: any other nonce is held by an earlier signature of the row.
  // A refused cancellation leaves the call as it was.
  rejected: { first: FAIL_AND_FILL, resend: FAIL, 'user-signed': FAIL, replacement: FAIL, cancel: RETRY },
  unknown: { first: RETRY, resend: RETRY, 'user-signed': RETRY, replacement: RETRY, cancel: RETRY },
  unfunded: { first: RETRY, resend: RETRY, 'user-signed': RETRY, replacement: RETRY, cancel: RETRY },
};

export function reactionTo(answer: NodeReply, job: BroadcastJob): Reaction {
  return TABLE[answer][job];
}
