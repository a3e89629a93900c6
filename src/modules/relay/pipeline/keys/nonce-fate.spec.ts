import type { ChainRegistry } from '../../../chains';
import type { RelayBroadcastEntity } from '../../store/relay-broadcast.entity';
import type { RelayTransactionEntity } from '../../store/relay-transaction.entity';
import type { ChainIo } from '../node/chain-io.service';
import type { MinedCheck } from '../track/mined-check';
import { NonceFate } from './nonce-fate';

/** A chain whose head is `head` and whose signer nonce at block b is nonceAt(b); receipts appear per call. */
function fate(opts: { head: number; nonceAt: (block: number) => bigint; receipts: boolean[]; confirmations?: number }) {
  const receipts = [...opts.receipts];
  const chain = { blockNumber: async () => opts.head, nonceAt: async (_c: number, _a: string, block: number) => opts.nonceAt(block) } as unknown as ChainIo;
  const chains = { get: () => ({ confirmations: opts.confirmations }) } as unknown as ChainRegistry;
  const mined = { settleIfMined: async () => receipts.shift() ?? false } as unknown as MinedCheck;
  return new NonceFate(chain, chains, mined);
}

const tx = { id: 't', chainId: 1, sender: '0xabc', nonce: 5n } as RelayTransactionEntity;
const sent = [{ hash: '0x1' }] as RelayBroadcastEntity[];

describe('NonceFate: which transaction consumed a row nonce, with finality', () => {
  it('settled when one of the row hashes has a receipt', async () => {
    expect(await fate({ head: 100, nonceAt: () => 6n, receipts: [true] }).decide(tx, sent)).toBe('settled');
  });

  it('open when the chain has not consumed the nonce', async () => {
    expect(await fate({ head: 100, nonceAt: () => 5n, receipts: [false] }).decide(tx, sent)).toBe('open');
  });

  it('wait when the nonce is consumed at the head but not confirmations deep', async () => {
    expect(await fate({ head: 100, nonceAt: (b) => (b >= 99 ? 6n : 5n), receipts: [false, false], confirmations: 3 }).decide(tx, sent)).toBe('wait');
  });

  it('settled when the receipt shows up on the second look, after the deep nonce read', async () => {
    expect(await fate({ head: 100, nonceAt: () => 6n, receipts: [false, true], confirmations: 3 }).decide(tx, sent)).toBe('settled');
  });

  it('reissue only when consumed that deep and none of the row hashes is mined', async () => {
    expect(await fate({ head: 100, nonceAt: () => 6n, receipts: [false, false], confirmations: 3 }).decide(tx, sent)).toBe('reissue');
  });

  it('defaults to 3 confirmations when the chain does not say', async () => {
    expect(await fate({ head: 100, nonceAt: (b) => (b >= 98 ? 6n : 5n), receipts: [false, false] }).decide(tx, sent)).toBe('wait');
    expect(await fate({ head: 100, nonceAt: (b) => (b >= 97 ? 6n : 5n), receipts: [false, false] }).decide(tx, sent)).toBe('reissue');
  });

  it('0 confirmations (instant local chains): consumed at the head is final', async () => {
    expect(await fate({ head: 100, nonceAt: () => 6n, receipts: [false, false], confirmations: 0 }).decide(tx, sent)).toBe('reissue');
  });
});
