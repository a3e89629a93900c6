import type { AppConfig } from '../../../config/app-config';
import type { ChainRegistry } from '../../chains';
import type { SettlementService } from './settlement.service';
import { ReceiptTracker } from './receipt-tracker.service';

describe('ReceiptTracker polling after a broadcast', () => {
  const chains = { get: (chainId: number) => ({ capabilities: { flashBlocks: chainId === 84532 } }) } as unknown as ChainRegistry;
  const config = { RELAY_RECEIPT_POLL_MS: 250, RELAY_FLASHBLOCKS_POLL_MS: 75 } as AppConfig;
  const tracker = new ReceiptTracker(chains, {} as SettlementService, config);
  const delayAfter = (chainId: number, ms: number) =>
    (tracker as unknown as { backoff(c: number, w: { kickedAt: number }): number }).backoff(chainId, { kickedAt: Date.now() - ms });

  it('polls every 5 ms right after a broadcast, then backs off with the time since it, up to the interval', () => {
    expect(delayAfter(31337, 0)).toBe(5);
    expect(delayAfter(31337, 140)).toBe(5);
    expect(delayAfter(31337, 200)).toBe(50);
    expect(delayAfter(31337, 600)).toBe(150);
    expect(delayAfter(31337, 5_000)).toBe(250);
    // Flash-blocks chains cap at their own, shorter interval.
    expect(delayAfter(84532, 5_000)).toBe(75);
  });
});
