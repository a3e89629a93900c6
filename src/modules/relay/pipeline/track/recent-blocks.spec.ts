import { RecentBlocks } from './recent-blocks';

describe('RecentBlocks', () => {
  const receipts = (n: number) => Array.from({ length: n }, (_, i) => ({ transactionHash: `0x${i}` }));

  it('keeps the blocks read last, within its block and receipt bounds, dropping the oldest first', () => {
    const recent = new RecentBlocks(3, 10);
    for (const block of [1, 2, 3, 4]) recent.put(block, receipts(2), recent.generation);
    expect([1, 2, 3, 4].map((b) => recent.get(b) !== undefined)).toEqual([false, true, true, true]);
    recent.put(5, receipts(8), recent.generation);
    // 2 + 2 + 2 + 8 receipts is past 10: blocks 2 and 3 go.
    expect([2, 3, 4, 5].map((b) => recent.get(b) !== undefined)).toEqual([false, false, true, true]);
    // A block larger than the whole bound is not kept.
    recent.put(6, receipts(11), recent.generation);
    expect(recent.get(6)).toBeUndefined();
  });

  it('after clear() nothing is kept, not even a read that was under way when it cleared', () => {
    const recent = new RecentBlocks();
    recent.put(1, receipts(1), recent.generation);
    const started = recent.generation;
    recent.clear();
    expect(recent.get(1)).toBeUndefined();
    recent.put(2, receipts(1), started);
    expect(recent.get(2)).toBeUndefined();
    recent.put(2, receipts(1), recent.generation);
    expect(recent.get(2)).toHaveLength(1);
  });
});
