import type { AppConfig } from '../../../config/app-config';
import type { ChainRegistry } from '../../chains';
import type { SettlementService } from './settlement.service';
import type { KeySlots } from './key-slots.service';
import { ReceiptTracker } from './receipt-tracker.service';

describe('ReceiptTracker polling after a broadcast', () => {
  const chains = { get: (chainId: number) => ({ capabilities: { flashBlocks: chainId === 84532 } }) } as unknown as ChainRegistry;
  const trackerWith = (headPollMs: number) => new ReceiptTracker(chains, {} as SettlementService, { RELAY_RECEIPT_POLL_MS: 250, RELAY_FLASHBLOCKS_POLL_MS: 75, RELAY_HEAD_POLL_MS: headPollMs } as AppConfig, {} as KeySlots);
  const delayOf = (tracker: ReceiptTracker, chainId: number, ms: number) =>
    (tracker as unknown as { backoff(c: number, w: { kickedAt: number }): number }).backoff(chainId, { kickedAt: Date.now() - ms });
  const delayAfter = (chainId: number, ms: number) => delayOf(trackerWith(0), chainId, ms);

  it('without a head poll cap: every 5 ms right after a broadcast, then backing off with the time since it, up to the interval', () => {
    expect(delayAfter(31337, 0)).toBe(5);
    expect(delayAfter(31337, 140)).toBe(5);
    expect(delayAfter(31337, 200)).toBe(50);
    expect(delayAfter(31337, 600)).toBe(150);
    expect(delayAfter(31337, 5_000)).toBe(250);
    // Flash-blocks chains cap at their own, shorter interval.
    expect(delayAfter(84532, 5_000)).toBe(75);
  });

  it('with RELAY_HEAD_POLL_MS the head is read at least that often while anything is in flight', () => {
    const tracker = trackerWith(25);
    expect(delayOf(tracker, 31337, 0)).toBe(5);
    expect(delayOf(tracker, 31337, 200)).toBe(25);
    expect(delayOf(tracker, 31337, 5_000)).toBe(25);
    expect(delayOf(trackerWith(100), 84532, 5_000)).toBe(75);
  });
});
