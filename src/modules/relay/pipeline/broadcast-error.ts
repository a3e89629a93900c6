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

const RULES: Array<[BroadcastOutcome, string[]]> = [
  ['known', ['already known', 'known transaction', 'already imported', 'already exists', 'alreadyknown']],
  ['nonce-used', ['nonce too low', 'nonce has already been used', 'nonce_expired', 'oldnonce', 'invalid nonce; got']],
  ['replacement-underpriced', ['replacement transaction underpriced', 'replacement fee too low', 'replacement underpriced', 'could not replace existing tx']],
  ['under-base-fee', ['max fee per gas less than block base fee', 'fee cap less than block base fee', 'feecaptoolow', 'maxfeepergas too low', 'transaction underpriced', 'gas price too low', 'gas price below minimum']],
  ['busy', ['txpool is full', 'too many pending', 'account limit exceeded', 'exceeds the pending tx limit', 'pending transactions limit', 'tx pool is full', 'transaction pool is full', 'queue limit', 'rate limit', 'too many requests']],
  ['unfunded', ['insufficient funds']],
  [
    'rejected',
    ['intrinsic gas too low', 'invalid sender', 'exceeds block gas limit', 'max priority fee per gas higher', 'tip higher than fee cap', 'invalid transaction', 'transaction type not supported', 'invalid chain id', 'oversized data'],
  ],
];

export function classifyBroadcastError(err: unknown): BroadcastOutcome {
  const text = `${(err as { shortMessage?: string }).shortMessage ?? ''} ${(err as Error).message ?? ''}`.toLowerCase();
  for (const [outcome, needles] of RULES) if (needles.some((n) => text.includes(n))) return outcome;
  // Timeouts, resets, 5xx, unparsed answers: the node may have taken it, so nothing is concluded.
  return 'unknown';
}

/** True when the refusal shows this signature in no pool and the nonce unconsumed by it: the same nonce may be signed again. */
export function nonceStillOurs(outcome: BroadcastOutcome): boolean {
  return outcome === 'under-base-fee' || outcome === 'busy' || outcome === 'unfunded';
}
