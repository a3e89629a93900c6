/** How a node's refusal of eth_sendRawTransaction is handled. */
export type BroadcastOutcome =
  /** The node has it already (a repeated broadcast): nothing to do. */
  | 'known'
  /** The nonce is used on chain: one of ours was mined, or the counter was behind the chain. */
  | 'nonce-used'
  /** The transaction can never be accepted as signed (bad fields, underpriced replacement, intrinsic gas). */
  | 'rejected'
  /**
   * The node's pool is full, for this sender or overall: the message proves it did not take the
   * transaction. Back-pressure: the same signed bytes are sent again once the key has room.
   */
  | 'pool-full'
  /** Worth retrying later: transport errors, relayer out of funds, node busy. */
  | 'transient';

/** Refusals that say the pool had no room for the transaction (geth, reth, erigon, hosted RPC wording). */
const POOL_FULL = ['txpool is full', 'tx pool is full', 'transaction pool is full', 'too many pending', 'account limit exceeded', 'pending transactions limit'];

export function classifyBroadcastError(err: unknown): BroadcastOutcome {
  const text = `${(err as { shortMessage?: string }).shortMessage ?? ''} ${(err as Error).message ?? ''}`.toLowerCase();
  if (text.includes('already known') || text.includes('known transaction') || text.includes('already imported')) return 'known';
  if (text.includes('nonce too low') || text.includes('nonce has already been used') || text.includes('nonce_expired')) return 'nonce-used';
  if (text.includes('insufficient funds')) return 'transient';
  if (POOL_FULL.some((m) => text.includes(m))) return 'pool-full';
  if (
    text.includes('intrinsic gas too low') ||
    text.includes('invalid sender') ||
    text.includes('exceeds block gas limit') ||
    text.includes('max priority fee per gas higher') ||
    text.includes('invalid transaction') ||
    text.includes('transaction type not supported')
  ) {
    return 'rejected';
  }
  return 'transient';
}
