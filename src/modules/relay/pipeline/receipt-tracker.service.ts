import { Injectable, Logger, OnModuleDestroy } from '@nestjs/common';
import { toQuantity } from 'ethers';
import { AppConfig } from '../../../config/app-config';
import { ChainRegistry } from '../../chains';
import type { RelayTransactionEntity } from '../store/relay-transaction.entity';
import { fromRpcReceipt, MinedReceipt } from '../core/mined-receipt';
import { KeySlots } from './key-slots.service';
import { SettlementService } from './settlement.service';

interface ChainWatch {
  hashes: Map<string, string>; // hash -> txId
  byTx: Map<string, Set<string>>;
  /** The sender's copy of the row, when it handed one over: settlement then reads nothing. */
  rows: Map<string, RelayTransactionEntity>;
  cursor: number; // last block scanned
  timer?: NodeJS.Timeout;
  dueAt: number;
  busy: boolean;
  /** A kick arrived while a poll was running: poll again right after it. */
  rerun: boolean;
  /** When the last broadcast was handed over: polling is fast right after it and slows down with time. */
  kickedAt: number;
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
 * Settlements of one block's receipts run this many at a time (each is a statement; one at a time
 * they queued behind each other). Few, so they do not take every database connection at the block
 * boundary, when the sends for the next block need them most.
 */
const SETTLE_PARALLEL = 4;
/** A head read this recently is a safe lower bound for a transaction about to be broadcast. */
const HEAD_FRESH_MS = 1_000;

/**
 * Watches the chains for the transactions this worker broadcast: one eth_getBlockReceipts
 * per new block instead of one receipt call per transaction, polled fast on flash-blocks
 * chains. A transaction this process forgets (restart) is found again by the reconciler.
 */
@Injectable()
export class ReceiptTracker implements OnModuleDestroy {
  private readonly logger = new Logger(ReceiptTracker.name);
  private readonly watches = new Map<number, ChainWatch>();
  private readonly heads = new Map<number, { block: number; at: number }>();
  private stopped = false;

  constructor(
    private readonly chains: ChainRegistry,
    private readonly settlement: SettlementService,
    private readonly config: AppConfig,
    private readonly slots: KeySlots,
  ) {}

  /** Starts watching `hash` from `fromBlock` (the block number seen just before broadcasting). */
  track(chainId: number, txId: string, hash: string, fromBlock: number, known?: RelayTransactionEntity): void {
    let watch = this.watches.get(chainId);
    if (!watch) {
      watch = { hashes: new Map(), byTx: new Map(), rows: new Map(), cursor: fromBlock - 1, dueAt: 0, busy: false, rerun: false, kickedAt: 0 };
      this.watches.set(chainId, watch);
    }
    // An idle watch restarts from this transaction's block; a busy one never skips back past it.
    watch.cursor = watch.hashes.size === 0 ? fromBlock - 1 : Math.min(watch.cursor, fromBlock - 1);
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
    for (const watch of this.watches.values()) if (watch.byTx.has(txId)) return true;
    return false;
  }

  /**
   * Settles a receipt found elsewhere (fast path right after broadcast, reconciler). `known` is
   * the caller's copy of the row when it has one, which saves settlement a read.
   */
  async found(chainId: number, receipt: MinedReceipt, known?: RelayTransactionEntity): Promise<void> {
    const watch = this.watches.get(chainId);
    const txId = watch?.hashes.get(receipt.transactionHash);
    const row = known?.id === txId ? known : txId ? watch?.rows.get(txId) : undefined;
    if (watch && txId) this.forget(watch, txId);
    if (txId) await this.settlement.settleMined(txId, receipt, row);
  }

  onModuleDestroy(): void {
    this.stopped = true;
    for (const watch of this.watches.values()) clearTimeout(watch.timer);
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
      void this.tick(chainId, watch).finally(() => {
        const again = watch.rerun;
        watch.rerun = false;
        if (watch.hashes.size > 0) this.schedule(chainId, watch, again ? KICK_MS : this.backoff(chainId, watch));
      });
    }, interval);
  }

  /** KICK_MS right after a broadcast, then a quarter of the time since it, up to the head poll and the chain's interval. */
  private backoff(chainId: number, watch: ChainWatch): number {
    const since = Date.now() - watch.kickedAt;
    if (since < FAST_WINDOW_MS) return KICK_MS;
    const headPoll = this.config.RELAY_HEAD_POLL_MS > 0 ? this.config.RELAY_HEAD_POLL_MS : Infinity;
    return Math.min(this.interval(chainId), headPoll, Math.max(KICK_MS, Math.round(since / 4)));
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
      this.noteHead(chainId, latest);
      for (let block = watch.cursor + 1; block <= latest && watch.hashes.size > 0; block++) {
        const raw = (await provider.send('eth_getBlockReceipts', [toQuantity(block)])) as Array<Record<string, unknown>> | null;
        const mined: Array<{ txId: string; receipt: MinedReceipt; known?: RelayTransactionEntity }> = [];
        for (const r of raw ?? []) {
          const hash = String(r.transactionHash).toLowerCase();
          const txId = watch.hashes.get(hash);
          if (!txId) continue;
          mined.push({ txId, receipt: fromRpcReceipt(r), known: watch.rows.get(txId) });
          this.forget(watch, txId);
          // Mined: the nonce left the node's pending pool now, even if settlement queues behind others.
          this.slots.release(txId);
        }
        for (let i = 0; i < mined.length; i += SETTLE_PARALLEL) {
          await Promise.all(
            mined.slice(i, i + SETTLE_PARALLEL).map(({ txId, receipt, known }) =>
              this.settlement.settleMined(txId, receipt, known).catch((err: Error) => {
                // The reconciler retries settlement from the chain; losing it here loses nothing.
                this.logger.error(`settling ${txId} failed: ${err.message}`);
              }),
            ),
          );
        }
        watch.cursor = block;
      }
    } catch (err) {
      this.logger.warn(`receipt poll on chain ${chainId} failed: ${(err as Error).message.split('\n')[0]}`);
    } finally {
      watch.busy = false;
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
