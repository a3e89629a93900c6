import { context, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { currentTraceId, runWithTrace } from '../../../../common/trace/trace-context';
import type { AppConfig } from '../../../../config/app-config';
import type { ChainRegistry } from '../../../chains';
import type { SettlementService } from '../settle/settlement.service';
import { nextBlockDue, ReceiptTracker } from './receipt-tracker.service';

describe('ReceiptTracker polling after a broadcast', () => {
  const chains = { get: (chainId: number) => ({ capabilities: { flashBlocks: chainId === 84532 } }) } as unknown as ChainRegistry;
  const trackerWith = (headPollMs: number) => new ReceiptTracker(chains, {} as SettlementService, { RELAY_RECEIPT_POLL_MS: 250, RELAY_FLASHBLOCKS_POLL_MS: 75, RELAY_HEAD_POLL_MS: headPollMs } as AppConfig);
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

describe('ReceiptTracker on a chain with a steady block interval', () => {
  const chains = { get: () => ({ capabilities: { flashBlocks: false } }) } as unknown as ChainRegistry;
  const tracker = new ReceiptTracker(chains, {} as SettlementService, { RELAY_RECEIPT_POLL_MS: 250, RELAY_FLASHBLOCKS_POLL_MS: 75, RELAY_HEAD_POLL_MS: 25 } as AppConfig);
  const backoff = (watch: object, now: number) => (tracker as unknown as { backoff(c: number, w: object, now: number): number }).backoff(31337, watch, now);
  /** Blocks 10.. seen at these times; the last broadcast long ago (past the fast window). */
  const watchOf = (times: number[]) => ({ kickedAt: 0, arrivals: times.map((at, i) => ({ block: 10 + i, at })) });

  it('reads the head every few ms from just before the next block is due, not a head poll late', () => {
    const watch = watchOf([1_000, 2_003, 2_998, 4_001, 5_000]);
    expect(nextBlockDue(watch)).toEqual({ at: 6_003, interval: 1_003 });
    // Far from it: the usual head poll.
    expect(backoff(watch, 5_100)).toBe(25);
    // 40 ms before it: wake up 30 ms before it, not 25 ms from now.
    expect(backoff(watch, 5_963)).toBe(10);
    // Within 30 ms of it, and while it is late (up to half an interval): every 3 ms.
    expect(backoff(watch, 5_980)).toBe(3);
    expect(backoff(watch, 6_300)).toBe(3);
    expect(backoff(watch, 6_600)).toBe(25);
  });

  it('no cadence from too few blocks, blocks seen two at a time, uneven steps or instant mining', () => {
    expect(nextBlockDue(watchOf([1_000, 2_000, 3_000, 4_000]))).toBeNull();
    expect(nextBlockDue({ arrivals: [10, 11, 13, 14, 15].map((block, i) => ({ block, at: i * 1_000 })) })).toBeNull();
    expect(nextBlockDue(watchOf([1_000, 2_000, 3_000, 4_400, 5_400]))).toBeNull();
    expect(nextBlockDue(watchOf([1_000, 1_004, 1_009, 1_013, 1_020]))).toBeNull();
    expect(backoff(watchOf([1_000, 1_004, 1_009, 1_013, 1_020]), 1_025)).toBe(25);
  });
});

describe('ReceiptTracker scanning blocks', () => {
  const hashOf = (n: number) => `0x${n.toString(16).padStart(64, '0')}`;
  const receipt = (hash: string, block: number) => ({ transactionHash: hash, blockNumber: `0x${block.toString(16)}`, blockHash: '0x', status: '0x1', from: '0x1', to: '0x2', gasUsed: '0x1', effectiveGasPrice: '0x1' });

  /** A chain of `head` blocks; `mined` places hashes in blocks; `onFetch` runs while a block's receipts are being read. */
  function setup(head: number, mined: Record<number, string[]>) {
    const fetched: number[] = [];
    /** The log trace id and the active span where each pass read the head and each batch was settled. */
    const contexts: Array<{ at: 'pass' | 'batch'; traceId?: string; span: boolean }> = [];
    const note = (at: 'pass' | 'batch') => contexts.push({ at, traceId: currentTraceId(), span: trace.getActiveSpan() !== undefined });
    const settled: string[] = [];
    const released: string[] = [];
    const batches: string[][] = [];
    let onFetch: ((block: number) => void) | undefined;
    const provider = {
      getBlockNumber: async () => {
        note('pass');
        return head;
      },
      send: async (method: string, params: unknown[]) => {
        expect(method).toBe('eth_getBlockReceipts');
        const block = Number(params[0]);
        fetched.push(block);
        await new Promise((r) => setImmediate(r));
        onFetch?.(block);
        return (mined[block] ?? []).map((h) => receipt(h, block));
      },
    };
    const chains = { provider: () => provider, get: () => ({ capabilities: { flashBlocks: false } }) } as unknown as ChainRegistry;
    // The slot goes with the move, which settlement makes: told as soon as the receipt is seen.
    const settlement = {
      settleMined: async (txId: string) => void settled.push(txId),
      settleMinedMany: async (batch: Array<{ txId: string }>) => {
        note('batch');
        batches.push(batch.map((b) => b.txId));
        for (const { txId } of batch) settled.push(txId);
      },
      receiptSeen: (txId: string) => void released.push(txId),
    } as unknown as SettlementService;
    const config = { RELAY_RECEIPT_POLL_MS: 250, RELAY_FLASHBLOCKS_POLL_MS: 75, RELAY_HEAD_POLL_MS: 25 } as AppConfig;
    const tracker = new ReceiptTracker(chains, settlement, config);
    trackers.push(tracker);
    const tick = () => (tracker as unknown as { tick(c: number, w: unknown): Promise<void> }).tick(1, (tracker as unknown as { watches: Map<number, unknown> }).watches.get(1));
    return { tracker, tick, fetched, settled, released, batches, contexts, setFetchHook: (f: (block: number) => void) => (onFetch = f) };
  }

  const trackers: ReceiptTracker[] = [];
  afterEach(async () => {
    for (const tracker of trackers.splice(0)) await tracker.onModuleDestroy();
  });

  it('a transaction tracked while a scan is running is looked for from its block, even if the scan had read it already', async () => {
    const t = setup(6, { 2: [hashOf(0xb)], 6: [hashOf(0xa)] });
    t.tracker.track(1, 'A', hashOf(0xa), 1);
    let tracked = false;
    t.setFetchHook((block) => {
      // While blocks 5-6 are read (1-4 are done), B shows up with a head hint of block 1: it may be in block 2.
      if (block === 5 && !tracked) {
        tracked = true;
        t.tracker.track(1, 'B', hashOf(0xb), 2);
      }
    });
    await t.tick();
    expect(t.settled.sort()).toEqual(['A', 'B']);
    expect(t.released.sort()).toEqual(['A', 'B']);
  });

  it('a first broadcast answered while a scan ran goes back to blocks already read: their receipts come from memory, not from the node again', async () => {
    const t = setup(6, { 2: [hashOf(0xb)], 6: [hashOf(0xa)] });
    t.tracker.track(1, 'A', hashOf(0xa), 1);
    // B went out before the poll saw the head (its head hint: block 1), and its answer came while blocks 5-6 were read.
    const sentAt = performance.now();
    let tracked = false;
    t.setFetchHook((block) => {
      if (block === 5 && !tracked) {
        tracked = true;
        t.tracker.track(1, 'B', hashOf(0xb), 2, undefined, sentAt);
      }
    });
    await t.tick();
    expect(t.settled.sort()).toEqual(['A', 'B']);
    expect(t.fetched.sort()).toEqual([1, 2, 3, 4, 5, 6]);
  });

  it("a resend's look-back reads its blocks from the node again: a reorg may have replaced them since", async () => {
    const t = setup(6, { 2: [hashOf(0xb)], 6: [hashOf(0xa)] });
    // D is still in flight, so the watch keeps what it read.
    t.tracker.track(1, 'A', hashOf(0xa), 1);
    t.tracker.track(1, 'D', hashOf(0xd), 1);
    await t.tick();
    expect(t.settled).toEqual(['A']);
    // B's earlier broadcast, watched again after a resend (no first-send time): from block 1.
    t.tracker.track(1, 'B', hashOf(0xb), 1);
    await t.tick();
    expect(t.settled).toEqual(['A', 'B']);
    expect(t.fetched.filter((b) => b === 2)).toHaveLength(2);
  });

  it('the receipts found in one scan settle as ONE batch, in block order, not one settlement each', async () => {
    const t = setup(4, { 1: [hashOf(0xa), hashOf(0xb)], 2: [hashOf(0xc)], 4: [hashOf(0xd)] });
    for (const [id, n] of [['A', 0xa], ['B', 0xb], ['C', 0xc], ['D', 0xd]] as const) t.tracker.track(1, id, hashOf(n), 1);
    t.setFetchHook(() => undefined);
    await t.tick();
    expect(t.batches).toEqual([['A', 'B', 'C', 'D']]);
    expect(t.released).toEqual(['A', 'B', 'C', 'D']);
  });

  it('a signature sent after blocks were read is not looked for in them again', async () => {
    const t = setup(6, { 6: [hashOf(0xa)] });
    t.tracker.track(1, 'A', hashOf(0xa), 1);
    t.setFetchHook(() => undefined);
    await t.tick();
    expect(t.settled).toEqual(['A']);
    const reads = t.fetched.length;
    // Sent now, with a stale head hint of block 1: blocks 1-6 were read before, so nothing is read again.
    t.tracker.track(1, 'C', hashOf(0xc), 1, undefined, performance.now() + 1);
    await t.tick();
    expect(t.fetched.length).toBe(reads);
  });

  it('a signature sent after its block was seen as the head is not looked for in it again, even if its receipts were still being read', async () => {
    const t = setup(6, { 6: [hashOf(0xa)] });
    t.tracker.track(1, 'A', hashOf(0xa), 1);
    let sentAt: number | undefined;
    // Broadcast while blocks 5-6 are read: the poll had seen head 6 already.
    t.setFetchHook((block) => void (block === 5 && sentAt === undefined && (sentAt = performance.now())));
    await t.tick();
    expect(t.settled).toEqual(['A']);
    const reads = t.fetched.length;
    // The node's answer comes after the scan; the head hint taken before the broadcast is stale (block 1).
    t.tracker.track(1, 'C', hashOf(0xc), 1, undefined, sentAt);
    await t.tick();
    expect(t.fetched.length).toBe(reads);
  });

  describe('in whose trace', () => {
    beforeAll(() => context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable()));
    afterAll(() => context.disable());

    it("a pass scheduled by one transaction's send job, and the batch it settles, run in no transaction's trace", async () => {
      const t = setup(2, { 2: [hashOf(0xa), hashOf(0xb)] });
      t.setFetchHook(() => undefined);
      // Both sends run in their jobs' traces (the log id and the job's span); A's schedules the pass.
      for (const [id, n] of [['A', 0xa], ['B', 0xb]] as const) {
        runWithTrace(`tx-${id}`, () => trace.getTracer('spec').startActiveSpan(`relay.send ${id}`, (span) => (t.tracker.track(1, id, hashOf(n), 1), span.end())));
      }
      for (let i = 0; i < 200 && t.batches.length === 0; i++) await new Promise((r) => setTimeout(r, 5));
      expect(t.batches).toEqual([['A', 'B']]);
      // The settlement gives each row its own trace (SettlementService); the pass and the batch carry none of A's.
      expect(t.contexts.length).toBeGreaterThanOrEqual(2);
      for (const c of t.contexts) {
        expect(c.span).toBe(false);
        expect(c.traceId).toMatch(c.at === 'pass' ? /^track-1-\d+$/ : /^settle-\d+$/);
      }
    });
  });
});
