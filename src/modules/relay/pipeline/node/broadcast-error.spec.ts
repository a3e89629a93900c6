import { classifyBroadcastError, nonceStillOurs } from './broadcast-error';

describe('classifyBroadcastError: what a node refusal proves', () => {
  const refused = (message: string, shortMessage?: string) => Object.assign(new Error(message), { shortMessage });

  it.each([
    // a node holds this very transaction
    ['already known', 'known'],
    ['known transaction: 0xabc', 'known'],
    ['transaction already imported', 'known'],
    // consumed by some transaction: which one is for the chain to say
    ['nonce too low: next nonce 5, tx nonce 4', 'nonce-used'],
    ['nonce has already been used', 'nonce-used'],
    ['NONCE_EXPIRED', 'nonce-used'],
    // a pool holds another transaction at the nonce
    ['replacement transaction underpriced', 'replacement-underpriced'],
    ['replacement fee too low', 'replacement-underpriced'],
    // priced under the base fee: re-price
    ['max fee per gas less than block base fee: address 0x1, maxFeePerGas: 1, baseFee: 2', 'under-base-fee'],
    ['fee cap less than block base fee', 'under-base-fee'],
    ['transaction underpriced', 'under-base-fee'],
    // back-pressure
    ['txpool is full', 'busy'],
    ['too many pending transactions', 'busy'],
    ['account limit exceeded', 'busy'],
    ['429 Too Many Requests', 'busy'],
    // the key cannot pay
    ['insufficient funds for gas * price + value', 'unfunded'],
    // never acceptable
    ['intrinsic gas too low', 'rejected'],
    ['invalid sender', 'rejected'],
    ['exceeds block gas limit', 'rejected'],
    ['max priority fee per gas higher than max fee per gas', 'rejected'],
    ['transaction type not supported', 'rejected'],
    // may have reached a node
    ['request timeout', 'unknown'],
    ['ECONNREFUSED 127.0.0.1:8545', 'unknown'],
    ['socket hang up', 'unknown'],
    ['internal error: upstream request failed', 'unknown'],
    ['transaction pool is full', 'busy'],
    ['too many pending transactions for sender 0xabc', 'busy'],
  ])('%s → %s', (message, outcome) => {
    expect(classifyBroadcastError(refused(message))).toBe(outcome);
  });

  it("reads ethers' short message as well as the full one", () => {
    expect(classifyBroadcastError(refused('could not coalesce error', 'nonce too low'))).toBe('nonce-used');
  });

  it('lets the same nonce be signed again only when the refusal proves the signature is in no pool', () => {
    expect(nonceStillOurs('under-base-fee')).toBe(true);
    expect(nonceStillOurs('busy')).toBe(true);
    expect(nonceStillOurs('unfunded')).toBe(true);
    for (const o of ['known', 'nonce-used', 'replacement-underpriced', 'unknown', 'rejected'] as const) expect(nonceStillOurs(o)).toBe(false);
  });
});
