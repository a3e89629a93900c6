import { Injectable, Logger, OnModuleDestroy } from '@nestjs/common';
import { toQuantity } from 'ethers';
import { runDetached } from '../../../../common/trace/tracing';
import { AppConfig } from '../../../../config/app-config';
import { ChainRegistry } from '../../../chains';
import type { RelayTransactionEntity } from '../../store/relay-transaction.entity';
import { fromRpcReceipt, MinedReceipt } from '../../core/mined-receipt';
import { SettlementService } from '../settle/settlement.service';
import { RawReceipt, RecentBlocks } from './recent-blocks';

interface MinedTx {
  txId: string;
  receipt: MinedReceipt;
  known?: RelayTransactionEntity;
}

interface ChainWatch {
  hashes: Map<string, string>; // hash -> txId
  byTx: Map<string, Set<string>>;
  /** The sender's copy of the row, when it handed one over: settlement then reads nothing. */
  rows: Map<string, RelayTransactionEntity>;
  cursor: number; // last block scanned
  /** A track() during a scan that needs blocks from here on (the scan in progress would overwrite the cursor). */
  rewindTo?: number;
  /** A track() on an empty watch during a scan: the scan goes on from here, not from where it was. */
  restartAt?: number;
  /**
   * Heads this watch's polls read and when each read returned (performance.now()), oldest
   * first: a block that existed before a broadcast went out cannot hold it.
   */
  seen: Array<{ block: number; at: number }>;
  timer?: NodeJS.Timeout;
  dueAt: number;
  busy: boolean;
  /** A kick arrived while a poll was running: poll again right after it. */
  rerun: boolean;
  /** When the last broadcast was handed over: polling is fast right after it and slows down with time. */
  kickedAt: number;
  /** The last heads this watch's polls saw arrive (first seen at `at`), oldest first: the chain's block cadence. */
  arrivals: Array<{ block: number; at: number }>;
  /** The receipts of the blocks read last: a scan sent back by a new broadcast reads them from here. */
  recent: RecentBlocks;
}

/**
 * After a broadcast the chain is polled every KICK_MS for FAST_WINDOW_MS: instant-mining and
 * flash-blocks chains include it within milliseconds (more under load), and the regular
 * interval would add up to a whole period of latency. Past the window the delay grows with the
 * time since the broadcast (a quarter of it) up to RELAY_HEAD_POLL_MS and the chain's interval.
 * A poll is one eth_blockNumber; receipts are fetched only when the head moved, so reading the
 * head every few tens of milliseconds finds a new block that much after it arrives (at 1 s blocks
 * the old cap, the 250 ms interval, left EXECUTED ~120 ms behind the block).
 */
const KICK_MS = 5;
const FAST_WINDOW_MS = 150;
/**
 * Settlement batches run this many at a time. Few, so they do not take every database
 * connection at the block boundary, when the sends for the next block need them most.
 */
const SETTLE_PARALLEL = 4;
/**
 * Receipts settled together, at most: everything found in one scan (a block's receipts, or the
 * few blocks read at once) and whatever waited meanwhile goes to settlement as ONE batch, one
 * statement for all covered settlements (`SettlementService.settleMinedMany`), instead of one
 * statement each: at 1 s blocks a burst's 300 receipts were 300 statements, four at a time, and
 * the last EXECUTED came that much after its block.
 */
const SETTLE_BATCH = 256;
/**
 * Receipts found and not yet settled past which the tracker reads no further block until
 * settlement catches up: settlement is handed over, not awaited, but cannot fall behind without
 * bound (each waiting one holds its receipt and row in memory).
 */
const SETTLE_BACKLOG = 256;
/**
 * Blocks whose receipts are read at once when the tracker is behind (instant mining makes a
 * block per transaction or two under load); one at a time, the tracker fell behind the sends and
 * their in-flight slots waited for it.
 */
const FETCH_PARALLEL = 4;
/** A head read this recently is a safe lower bound for a transaction about to be broadcast. */
const HEAD_FRESH_MS = 1_000;
/**
 * On a chain that makes blocks at a steady interval (interval mining, most L2s), the head is read
 * every NEAR_POLL_MS from NEAR_MS before the next block is due until it arrives (or half an
 * interval late): the block is seen a few ms after it arrives instead of up to a head poll
 * (RELAY_HEAD_POLL_MS) later, for a dozen more eth_blockNumber calls per block while anything is
 * in flight. The cadence is the last CADENCE_SPAN single-block steps, steady when they differ by
 * at most CADENCE_TOLERANCE of their median (instant mining never is).
 */
const NEAR_MS = 30;
const NEAR_POLL_MS = 3;
const CADENCE_SPAN = 4;
const CADENCE_TOLERANCE = 0.1;

/**
 * Watches the chains for the transactions this worker broadcast: one eth_getBlockReceipts
 * per new block instead of one receipt call per transaction, polled fast on flash-blocks
 * chains. A transaction this process forgets (restart) is found again by the reconciler.
 *
 * A found receipt frees the transaction's in-flight slot at once and is handed to settlement,
 * batched with the others found with it (SETTLE_PARALLEL batches at a time), while the tracker
 * goes on to the next block: when the scan awaited
 * each block's settlements, the slots of every later block waited for them too, and with the
 * in-flight bound reached the sends went at the pace of one settlement statement per block.
 */
@Injectable()
export class ReceiptTracker implements OnModuleDestroy {
  private readonly logger = new Logger(ReceiptTracker.name);
  private readonly watches = new Map<number, ChainWatch>();
  private readonly heads = new Map<number, { block: number; at: number }>();
  /** Found receipts waiting for a settlement slot, oldest first. */
  private waitingSettlement: MinedTx[] = [];
  /** Transactions handed to settlement (waiting or running): still this process's to finish. */
  private readonly settling = new Set<string>();
  private readonly running = new Set<Promise<void>>();
  /** Scans waiting for the settlement backlog to shrink. */
  private drained: Array<() => void> = [];
  private startQueued = false;
  private stopped = false;

  constructor(
    private readonly chains: ChainRegistry,
    private readonly settlement: SettlementService,
    private readonly config: AppConfig,
  ) {}

  /**
   * Starts watching `hash` from `fromBlock` (the block number seen just before broadcasting).
   * `sentAt` (performance.now()), for a signature first broadcast at that moment: no block this
   * tracker's polls had seen before then can hold it, so the scan does not go back past those
   * (the head hint taken before the broadcast is older under load, and reading its blocks again
   * slowed the tracker down that much more).
   */
  track(chainId: number, txId: string, hash: string, fromBlock: number, known?: RelayTransactionEntity, sentAt?: number): void {
    let watch = this.watches.get(chainId);
    if (!watch) {
      watch = { hashes: new Map(), byTx: new Map(), rows: new Map(), cursor: fromBlock - 1, dueAt: 0, busy: false, rerun: false, kickedAt: 0, seen: [], arrivals: [], recent: new RecentBlocks() };
      this.watches.set(chainId, watch);
    }
    // Only a first broadcast (`sentAt`) may find its blocks in memory: a resend or a cancellation
    // looks back past blocks a reorg may have replaced since they were read.
    if (sentAt === undefined) watch.recent.clear();
    if (sentAt !== undefined) fromBlock = Math.max(fromBlock, seenBefore(watch, sentAt) + 1);
    // An idle watch restarts from this transaction's block; a busy one never skips back past it,
    // including while a scan is running (it rescans from there when it has read the block it is on).
    if (watch.hashes.size === 0) {
      watch.cursor = fromBlock - 1;
      if (watch.busy) watch.restartAt = fromBlock - 1;
    } else if (fromBlock - 1 < watch.cursor) {
      watch.cursor = fromBlock - 1;
      if (watch.busy) watch.rewindTo = Math.min(watch.rewindTo ?? Infinity, fromBlock - 1);
    }
    const lower = hash.toLowerCase();
    watch.hashes.set(lower, txId);
    const set = watch.byTx.get(txId) ?? new Set<string>();
    set.add(lower);
    watch.byTx.set(txId, set);
    if (known?.id === txId) watch.rows.set(txId, known);
    if (watch.busy) watch.rerun = true;
    watch.kickedAt = Date.now();
    this.schedule(chainId, watch, KICK_MS);
  }

  /**
   * A block number at or below the chain's head, for a broadcast's `fromBlock`: the last head a
   * poll saw when it is fresh (under load the tracker polls constantly, so a send costs no extra
   * RPC), else read now. Any transaction broadcast after the read lands in a later block.
   */
  async headHint(chainId: number): Promise<number> {
    const seen = this.heads.get(chainId);
    if (seen && Date.now() - seen.at < HEAD_FRESH_MS) return seen.block;
    const block = await this.chains.provider(chainId).getBlockNumber();
    this.noteHead(chainId, block);
    return block;
  }

  /** True while broadcasts just went out on the chain, so it is polled every few milliseconds. */
  isPollingFast(chainId: number): boolean {
    const watch = this.watches.get(chainId);
    return !!watch && watch.hashes.size > 0 && Date.now() - watch.kickedAt < FAST_WINDOW_MS;
  }

  isTracking(txId: string): boolean {
    if (this.settling.has(txId)) return true;
    for (const watch of this.watches.values()) if (watch.byTx.has(txId)) return true;
    return false;
  }

  /**
   * Settles a receipt found elsewhere (fast path right after broadcast, reconciler). `known` is
   * the caller's copy of the row when it has one, which saves settlement a read.
   */
  async found(chainId: number, receipt: MinedReceipt, known?: RelayTransactionEntity, ofTx?: string): Promise<void> {
    const watch = this.watches.get(chainId);
    const txId = ofTx ?? watch?.hashes.get(receipt.transactionHash);
    const row = known?.id === txId ? known : txId ? watch?.rows.get(txId) : undefined;
    if (watch && txId) this.forget(watch, txId);
    if (txId) await this.settlement.settleMined(txId, receipt, row);
  }

  /** Settlements already running finish; waiting ones are left to the reconciler, as any receipt this process did not settle. */
  async onModuleDestroy(): Promise<void> {
    this.stopped = true;
    for (const watch of this.watches.values()) clearTimeout(watch.timer);
    this.waitingSettlement = [];
    for (const wake of this.drained.splice(0)) wake();
    await Promise.all([...this.running]);
  }

  /** Polls after `delay` (default: the chain's interval), or sooner if a poll is already due sooner. */
  private schedule(chainId: number, watch: ChainWatch, delay?: number): void {
    if (this.stopped) return;
    const interval = delay ?? this.interval(chainId);
    if (watch.timer && watch.dueAt <= Date.now() + interval) return;
    clearTimeout(watch.timer);
    watch.dueAt = Date.now() + interval;
    watch.timer = setTimeout(() => {
      watch.timer = undefined;
      // A pass serves every transaction of the chain, not the one whose send scheduled it.
      void runDetached(`track-${chainId}-${Date.now()}`, () => this.tick(chainId, watch)).finally(() => {
        const again = watch.rerun;
        watch.rerun = false;
        if (watch.hashes.size > 0) this.schedule(chainId, watch, again ? KICK_MS : this.backoff(chainId, watch));
      });
    }, interval);
  }

  /**
   * KICK_MS right after a broadcast, then a quarter of the time since it, up to the head poll and
   * the chain's interval; NEAR_POLL_MS around the time a steady chain's next block is due, and
   * never past that time.
   */
  private backoff(chainId: number, watch: ChainWatch, now = Date.now()): number {
    const since = now - watch.kickedAt;
    const headPoll = this.config.RELAY_HEAD_POLL_MS > 0 ? this.config.RELAY_HEAD_POLL_MS : Infinity;
    const usual = since < FAST_WINDOW_MS ? KICK_MS : Math.min(this.interval(chainId), headPoll, Math.max(KICK_MS, Math.round(since / 4)));
    const due = nextBlockDue(watch);
    if (due === null) return usual;
    const until = due.at - now;
    if (until > NEAR_MS) return Math.min(usual, until - NEAR_MS);
    return until > -due.interval / 2 ? Math.min(usual, NEAR_POLL_MS) : usual;
  }

  private interval(chainId: number): number {
    return this.chains.get(chainId).capabilities.flashBlocks ? this.config.RELAY_FLASHBLOCKS_POLL_MS : this.config.RELAY_RECEIPT_POLL_MS;
  }

  private async tick(chainId: number, watch: ChainWatch): Promise<void> {
    if (watch.busy) {
      watch.rerun = true;
      return;
    }
    watch.busy = true;
    try {
      const provider = this.chains.provider(chainId);
      const latest = await provider.getBlockNumber();
      noteSeen(watch, latest, performance.now());
      noteArrival(watch, latest, Date.now());
      this.noteHead(chainId, latest);
      while (watch.cursor < latest && watch.hashes.size > 0) {
        if (this.settling.size >= SETTLE_BACKLOG) await new Promise<void>((wake) => this.drained.push(wake));
        if (this.stopped) return;
        const first = watch.cursor + 1;
        const blocks = Array.from({ length: Math.min(FETCH_PARALLEL, latest - watch.cursor) }, (_, i) => first + i);
        watch.rewindTo = undefined;
        watch.restartAt = undefined;
        const receipts = await Promise.all(blocks.map((block) => watch.recent.get(block) ?? this.readReceipts(chainId, watch, block)));
        for (const raw of receipts) {
          for (const r of raw ?? []) {
            const hash = String(r.transactionHash).toLowerCase();
            const txId = watch.hashes.get(hash);
            if (!txId) continue;
            const known = watch.rows.get(txId);
            this.forget(watch, txId);
            // Mined: the nonce left the node's pending pool now, even if settlement queues behind others.
            this.settlement.receiptSeen(txId);
            this.settleLater({ txId, receipt: fromRpcReceipt(r), known });
          }
        }
        // A transaction tracked meanwhile may be in a block read before it was tracked: read again from there.
        watch.cursor = Math.min(watch.restartAt ?? blocks[blocks.length - 1], watch.rewindTo ?? Infinity);
        watch.rewindTo = undefined;
        watch.restartAt = undefined;
      }
    } catch (err) {
      this.logger.warn(`receipt poll on chain ${chainId} failed: ${(err as Error).message.split('\n')[0]}`);
    } finally {
      watch.busy = false;
      // Nothing left to find: the blocks read are not kept while the watch is idle.
      if (watch.hashes.size === 0) watch.recent.clear();
    }
  }

  /** A block's receipts from the node, kept for a scan sent back to it. Null: the provider has no such block yet. */
  private async readReceipts(chainId: number, watch: ChainWatch, block: number): Promise<readonly RawReceipt[] | null> {
    const generation = watch.recent.generation;
    const raw = (await this.chains.provider(chainId).send('eth_getBlockReceipts', [toQuantity(block)])) as RawReceipt[] | null;
    if (raw) watch.recent.put(block, raw, generation);
    return raw;
  }

  /**
   * Queues a found receipt for settlement. The batch starts once the synchronous scan of the
   * receipts in hand is over (a microtask later), so all of them settle together; at most
   * SETTLE_PARALLEL batches run at once.
   */
  private settleLater(mined: MinedTx): void {
    this.settling.add(mined.txId);
    this.waitingSettlement.push(mined);
    if (this.startQueued) return;
    this.startQueued = true;
    queueMicrotask(() => {
      this.startQueued = false;
      this.startSettlements();
    });
  }

  private startSettlements(): void {
    while (this.running.size < SETTLE_PARALLEL && this.waitingSettlement.length > 0) {
      const batch = this.waitingSettlement.splice(0, SETTLE_BATCH);
      // Started by whichever pass, sender or batch found the receipts: each row's lines and spans are its own (SettlementService).
      const run: Promise<void> = runDetached(`settle-${Date.now()}`, () => this.settlement.settleMinedMany(batch))
        .catch((err: Error) => {
          // The reconciler retries settlement from the chain; losing it here loses nothing.
          this.logger.error(`settling ${batch.length} receipt(s) failed: ${err.message}`);
        })
        .finally(() => {
          this.running.delete(run);
          for (const { txId } of batch) this.settling.delete(txId);
          if (!this.stopped) this.startSettlements();
          if (this.settling.size < SETTLE_BACKLOG) for (const wake of this.drained.splice(0)) wake();
        });
      this.running.add(run);
    }
  }

  private noteHead(chainId: number, block: number): void {
    const seen = this.heads.get(chainId);
    // Concurrent reads may finish out of order; a head never moves back.
    this.heads.set(chainId, { block: Math.max(block, seen?.block ?? 0), at: Date.now() });
  }

  private forget(watch: ChainWatch, txId: string): void {
    for (const hash of watch.byTx.get(txId) ?? []) watch.hashes.delete(hash);
    watch.byTx.delete(txId);
    watch.rows.delete(txId);
  }
}

/** Notes when a poll first saw a new head (the arrivals of the last few blocks). */
function noteArrival(watch: ChainWatch, head: number, at: number): void {
  const last = watch.arrivals[watch.arrivals.length - 1];
  if (last && head <= last.block) return;
  watch.arrivals.push({ block: head, at });
  if (watch.arrivals.length > CADENCE_SPAN + 1) watch.arrivals.shift();
}

/**
 * When a steady chain's next block is due (the last arrival plus the median step of the last
 * CADENCE_SPAN single-block steps), or null when the steps are too few or not steady.
 */
export function nextBlockDue(watch: Partial<Pick<ChainWatch, 'arrivals'>>): { at: number; interval: number } | null {
  const a = watch.arrivals ?? [];
  if (a.length < CADENCE_SPAN + 1) return null;
  const steps: number[] = [];
  for (let i = 1; i < a.length; i++) {
    // A poll that saw two blocks at once (or a gap) tells no single step.
    if (a[i].block - a[i - 1].block !== 1) return null;
    steps.push(a[i].at - a[i - 1].at);
  }
  const sorted = [...steps].sort((x, y) => x - y);
  const median = sorted[Math.floor(sorted.length / 2)];
  if (median < 2 * NEAR_MS || sorted[sorted.length - 1] - sorted[0] > CADENCE_TOLERANCE * median) return null;
  return { at: a[a.length - 1].at + median, interval: median };
}

/** Heads remembered with the time they were first seen (a few seconds of instant blocks). */
const SEEN_MEMORY = 256;

function noteSeen(watch: ChainWatch, head: number, at: number): void {
  const last = watch.seen[watch.seen.length - 1];
  if (last && head <= last.block) return;
  watch.seen.push({ block: head, at });
  if (watch.seen.length > SEEN_MEMORY) watch.seen.splice(0, watch.seen.length - SEEN_MEMORY);
}

/**
 * The highest block a poll had seen before `time` (so nothing sent at `time` is in it or before
 * it); -1 when none. Bounded by the head, not by the blocks whose receipts were read: at 1 s
 * blocks a burst's broadcasts answered while the block's receipts were being read sent the
 * tracker back to read that block's hundreds of receipts again, beside its settlement.
 */
function seenBefore(watch: ChainWatch, time: number): number {
  let best = -1;
  for (const s of watch.seen) if (s.at < time && s.block > best) best = s.block;
  return best;
}
