import { classifyBroadcastError } from './broadcast-error';

describe('classifyBroadcastError: what a node refusal proves', () => {
  const refused = (message: string, shortMessage?: string) => Object.assign(new Error(message), { shortMessage });

  it.each([
    ['already known', 'known'],
    ['known transaction: 0xabc', 'known'],
    ['transaction already imported', 'known'],
    ['nonce too low: next nonce 5, tx nonce 4', 'nonce-used'],
    ['nonce has already been used', 'nonce-used'],
    ['NONCE_EXPIRED', 'nonce-used'],
    ['intrinsic gas too low', 'rejected'],
    ['invalid sender', 'rejected'],
    ['exceeds block gas limit', 'rejected'],
    ['max priority fee per gas higher than max fee per gas', 'rejected'],
    ['transaction type not supported', 'rejected'],
    ['insufficient funds for gas * price + value', 'transient'],
    ['txpool is full', 'pool-full'],
    ['transaction pool is full', 'pool-full'],
    ['too many pending transactions for sender 0xabc', 'pool-full'],
    ['account limit exceeded', 'pool-full'],
    ['replacement transaction underpriced', 'transient'],
    ['request timeout', 'transient'],
    ['ECONNREFUSED 127.0.0.1:8545', 'transient'],
  ])('%s → %s', (message, outcome) => {
    expect(classifyBroadcastError(refused(message))).toBe(outcome);
  });

  it("reads ethers' short message as well as the full one", () => {
    expect(classifyBroadcastError(refused('could not coalesce error', 'nonce too low'))).toBe('nonce-used');
  });
});
