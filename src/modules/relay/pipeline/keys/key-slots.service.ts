import { Inject, Injectable, Logger, OnModuleDestroy } from '@nestjs/common';
import { runDetached } from '../../../../common/trace/tracing';
import { AppConfig } from '../../../../config/app-config';
import { capAfterRefusal } from '../../core/key-choice';
import { RelayTransactionStore } from '../../store/relay-transaction.store';
import { SLOT_LEDGER, SLOT_RENEW_MS, SlotLedger } from './slot-ledger';

interface Waiter {
  /** The slot keys of its pool (shared by every waiter of the same pool, see `slotKeys`). */
  keys: readonly string[];
  txId: string;
  resolve: (index: number) => void;
  timer: NodeJS.Timeout;
  /** Resolved (slot or timeout): a slot taken for it after that is given back. */
  done: boolean;
}

interface ReleaseBatch {
  txIds: string[];
  /** Resolves once the ledger has them (or the call failed). */
  done: Promise<void>;
  sent: () => void;
}

/** How long a cap learned from a node's "txpool full" refusal holds before the configured bound applies again. */
const REFUSAL_CAP_MS = 30_000;
/** Slots held longer than this are checked against the database (a row settled by another process frees its slot here too). */
const SWEEP_AFTER_MS = 10_000;
const SWEEP_EVERY_MS = 5_000;
/** While sends wait, how often the ledger is asked again (another process may have freed a slot). */
const POLL_WAITERS_MS = 100;

/**
 * Bounds the transactions signed and not yet mined per relayer key (RELAY_MAX_IN_FLIGHT_PER_KEY):
 * real nodes keep about 16 pending transactions per sender and hosted RPCs refuse more. A send
 * takes a slot on the least loaded key of its pool before its nonce is claimed and gives it back
 * when the transaction is mined, failed or its nonce released. When every key is full the send
 * waits here, first come first served, and is woken by the first slot that frees.
 *
 * The bound holds across every worker process: slots are leases in the shared ledger (Redis,
 * `SlotLedger`), renewed by the process holding them, so a dead process's slots come back when
 * their leases run out. Waiting sends are woken by a release here at once, and by a release in
 * another process at the next poll.
 */
@Injectable()
export class KeySlots implements OnModuleDestroy {
  private readonly logger = new Logger(KeySlots.name);
  private readonly loads = new Map<string, number>();
  private readonly caps = new Map<string, { cap: number; until: number }>();
  private readonly holders = new Map<string, { key: string; since: number }>();
  /** Per key, the rows whose nonce a node refused as "pool full" and that wait to send it again: row id → nonce. */
  private readonly parked = new Map<string, Map<string, bigint>>();
  private readonly parkedKeyOf = new Map<string, string>();
  private waiters: Waiter[] = [];
  /** Slot keys per chain and pool, one array per distinct pool: built once, not per waiter and release. */
  private readonly keyLists = new Map<string, readonly string[]>();
  private turn = 0;
  private sweeper?: NodeJS.Timeout;
  private sweeping = false;
  private renewer?: NodeJS.Timeout;
  private poller?: NodeJS.Timeout;
  private waking: Promise<void> = Promise.resolve();
  private wakeRunning = false;
  private wakeAgain = false;
  /** Slots this process released since the last wake pass began: what that pass can hand out, at most. */
  private freed = 0;
  /** The poller asked: slots may have freed elsewhere (another process, a lease run out), how many is unknown. */
  private lookAll = false;
  /** Releases made this turn, not yet sent to the ledger. */
  private releasing?: ReleaseBatch;

  constructor(
    private readonly config: AppConfig,
    private readonly txs: RelayTransactionStore,
    @Inject(SLOT_LEDGER) private readonly ledger: SlotLedger,
  ) {}

  /**
   * A slot on one of `signers` for `txId`, waiting up to `waitMs` for one to free; null when
   * none did. A transaction that already holds a slot gets its key back.
   */
  async acquire<S extends { address: string }>(chainId: number, signers: readonly S[], txId: string, waitMs: number): Promise<S | null> {
    const held = this.holders.get(txId);
    if (held) {
      const same = signers.find((s) => slotKey(chainId, s.address) === held.key);
      if (same) return same;
      await this.releaseNow(txId);
    }
    if (signers.length === 0) return null;
    const keys = this.slotKeys(chainId, signers);
    const now = await this.take(keys, txId);
    if (now >= 0) return signers[now];
    if (waitMs <= 0) return null;
    return new Promise<S | null>((resolve) => {
      const waiter: Waiter = {
        keys,
        txId,
        done: false,
        resolve: (index) => {
          waiter.done = true;
          resolve(index >= 0 ? signers[index] : null);
        },
        timer: setTimeout(() => {
          this.waiters = this.waiters.filter((w) => w !== waiter);
          waiter.resolve(-1);
        }, waitMs),
      };
      this.waiters.push(waiter);
      this.startPoller();
    });
  }

  /** The transaction is no longer in flight (mined, failed, nonce released, never claimed). Idempotent. */
  release(txId: string): void {
    void this.releaseNow(txId);
  }

  /** `release`, resolved once the ledger has it (a slot freed in another process's ledger entry too). */
  private releaseNow(txId: string): Promise<void> {
    this.taken(txId);
    const held = this.holders.get(txId);
    if (held) {
      this.holders.delete(txId);
      const load = (this.loads.get(held.key) ?? 1) - 1;
      if (load > 0) this.loads.set(held.key, load);
      else this.loads.delete(held.key);
    }
    let batch = this.releasing;
    if (!batch) {
      let sent!: () => void;
      const done = new Promise<void>((resolve) => (sent = resolve));
      batch = this.releasing = { txIds: [], done, sent };
      const queued = batch;
      queueMicrotask(() => this.sendReleases(queued));
    }
    batch.txIds.push(txId);
    return batch.done;
  }

  /**
   * The releases of one turn go to the ledger as one call (the tracker frees a block's slots in
   * one loop: a Redis round trip per transaction before). Sent at the end of the turn, or before
   * a take, so that the ledger sees them in the order they were made.
   */
  private sendReleases(batch: ReleaseBatch): void {
    if (this.releasing !== batch) return;
    this.releasing = undefined;
    this.ledger
      .release(...batch.txIds)
      // Their leases then run out on their own.
      .catch((err: Error) => this.logger.warn(`in-flight slot release of ${batch.txIds.length} transaction(s): ${err.message}`))
      .then(() => {
        this.freed += batch.txIds.length;
        batch.sent();
        void this.wake();
      });
  }

  /**
   * A node refused a transaction of this key because its pool for the sender (or the whole pool)
   * is full: no new nonce goes to the key until it holds fewer than it did, for a while.
   */
  refused(chainId: number, address: string, txId: string, nonce: bigint): void {
    const key = slotKey(chainId, address);
    const parked = this.parked.get(key) ?? new Map<string, bigint>();
    parked.set(txId, nonce);
    this.parked.set(key, parked);
    this.parkedKeyOf.set(txId, key);
    const cap = capAfterRefusal(this.loads.get(key) ?? 0, this.config.RELAY_MAX_IN_FLIGHT_PER_KEY);
    this.caps.set(key, { cap, until: Date.now() + REFUSAL_CAP_MS });
    this.logger.warn(`node refused a transaction of ${address} on ${chainId} as too many pending: at most ${cap} in flight on it for ${REFUSAL_CAP_MS / 1000} s`);
  }

  /**
   * True while a lower nonce of this key waits to be sent again after a "pool full" refusal:
   * a node would hold `nonce` as queued behind the gap, where it takes the sender's room and
   * can keep the lower one out for good. It waits for the lower one instead.
   */
  behindRefused(chainId: number, address: string, nonce: bigint): boolean {
    const parked = this.parked.get(slotKey(chainId, address));
    if (!parked) return false;
    for (const lower of parked.values()) if (lower < nonce) return true;
    return false;
  }

  /** A node took the row's transaction (or it left flight): it no longer holds back the key's higher nonces. */
  taken(txId: string): void {
    const key = this.parkedKeyOf.get(txId);
    if (key === undefined) return;
    this.parkedKeyOf.delete(txId);
    const parked = this.parked.get(key);
    parked?.delete(txId);
    if (parked?.size === 0) this.parked.delete(key);
  }

  /** Transactions of this key in flight, across every process (the shared ledger). */
  inFlightEverywhere(chainId: number, address: string): Promise<number> {
    return this.ledger.load(slotKey(chainId, address));
  }

  /** Transactions of this key in flight, as this process counts them. */
  inFlight(chainId: number, address: string): number {
    return this.loads.get(slotKey(chainId, address)) ?? 0;
  }

  /** Sends waiting for a slot. */
  waiting(): number {
    return this.waiters.length;
  }

  onModuleDestroy(): void {
    clearInterval(this.sweeper);
    clearInterval(this.renewer);
    clearInterval(this.poller);
    for (const w of this.waiters) {
      clearTimeout(w.timer);
      w.resolve(-1);
    }
    this.waiters = [];
  }

  private slotKeys(chainId: number, signers: readonly { address: string }[]): readonly string[] {
    const id = `${chainId}|${signers.map((s) => s.address).join(',')}`;
    let keys = this.keyLists.get(id);
    if (!keys) {
      keys = signers.map((s) => slotKey(chainId, s.address));
      // Pools change only with key eligibility: a handful of lists per chain and region.
      if (this.keyLists.size >= 1_000) this.keyLists.clear();
      this.keyLists.set(id, keys);
    }
    return keys;
  }

  private async take(keys: readonly string[], txId: string): Promise<number> {
    if (this.releasing) this.sendReleases(this.releasing);
    const index = await this.ledger.take(
      keys,
      keys.map((k) => this.capOf(k)),
      txId,
      this.turn++,
    );
    if (index < 0) return -1;
    if (!this.holders.has(txId)) this.loads.set(keys[index], (this.loads.get(keys[index]) ?? 0) + 1);
    this.holders.set(txId, { key: keys[index], since: Date.now() });
    this.startSweeper();
    return index;
  }

  private capOf(key: string): number {
    const bound = this.config.RELAY_MAX_IN_FLIGHT_PER_KEY;
    const learned = this.caps.get(key);
    if (!learned) return bound;
    if (learned.until <= Date.now()) {
      this.caps.delete(key);
      return bound;
    }
    return Math.min(bound, learned.cap);
  }

  /**
   * First come, first served: each waiter in turn takes a slot if its pool has one. Once a pool
   * is found full, its other waiters are not tried again in this pass (with every key full, a
   * release used to cost a look at every key for every waiting send).
   *
   * A pass woken by this process's releases hands out at most as many slots as were released:
   * once they are taken it stops, instead of asking the ledger once more only to learn the pool
   * is full again (under load every release cost a second, futile take: a Lua call over every
   * key of the pool). Slots freed elsewhere are found by the poller's passes, which look at every
   * pool as before.
   */
  private wake(): Promise<void> {
    if (this.wakeRunning) {
      this.wakeAgain = true;
      return this.waking;
    }
    this.wakeRunning = true;
    this.waking = (async () => {
      try {
        do {
          this.wakeAgain = false;
          const budget = this.lookAll ? Infinity : this.freed;
          this.lookAll = false;
          this.freed = 0;
          if (budget > 0) await this.wakePass(budget);
        } while (this.wakeAgain);
      } catch (err) {
        this.logger.warn(`waking sends waiting for a slot: ${(err as Error).message}`);
      } finally {
        // In the same turn as the loop's last check: a release from here on starts a new loop
        // (cleared a few microtasks later, a release in between was left to the poller).
        this.wakeRunning = false;
      }
    })();
    return this.waking;
  }

  private async wakePass(budget: number): Promise<void> {
    const full = new Set<readonly string[]>();
    let given = 0;
    for (const w of [...this.waiters]) {
      if (given >= budget) return;
      if (w.done || full.has(w.keys)) continue;
      const index = await this.take(w.keys, w.txId);
      if (index < 0) {
        full.add(w.keys);
        continue;
      }
      given++;
      this.waiters = this.waiters.filter((x) => x !== w);
      if (w.done) {
        // It gave up while its slot was being taken: the slot goes back.
        await this.releaseNow(w.txId);
        continue;
      }
      clearTimeout(w.timer);
      w.resolve(index);
    }
  }

  /** While sends wait: slots freed by other processes are seen within POLL_WAITERS_MS. */
  private startPoller(): void {
    if (this.poller) return;
    // Started by the first send that waits, but it serves every waiter: not in that send's trace.
    this.poller = runDetached('key-slots-waiters', () => setInterval(() => {
      if (this.waiters.length === 0) {
        clearInterval(this.poller);
        this.poller = undefined;
        return;
      }
      this.lookAll = true;
      void this.wake();
    }, POLL_WAITERS_MS).unref());
  }

  /** Started by the first send that takes a slot; they run for the process, in no send's trace. */
  private startSweeper(): void {
    if (this.sweeper) return;
    this.sweeper = runDetached('key-slots', () => setInterval(() => void this.sweep(), SWEEP_EVERY_MS).unref());
    // The leases of this process's slots, kept alive while it holds them.
    this.renewer = runDetached('key-slots', () =>
      setInterval(() => {
        const held = [...this.holders].map(([txId, h]) => ({ key: h.key, txId }));
        this.ledger.renew(held).catch((err: Error) => this.logger.warn(`in-flight slot renewal: ${err.message}`));
      }, SLOT_RENEW_MS).unref(),
    );
  }

  /** Frees slots whose rows left the signed/broadcast stages without this process hearing of it. */
  private async sweep(): Promise<void> {
    if (this.sweeping) return;
    const old = [...this.holders].filter(([, h]) => Date.now() - h.since > SWEEP_AFTER_MS).map(([txId]) => txId);
    if (old.length === 0) return;
    this.sweeping = true;
    try {
      const sent = await this.txs.stillSent(old);
      for (const txId of old) if (!sent.has(txId)) this.release(txId);
    } catch (err) {
      this.logger.warn(`in-flight slot sweep failed: ${(err as Error).message}`);
    } finally {
      this.sweeping = false;
    }
  }
}

function slotKey(chainId: number, address: string): string {
  return `${chainId}:${address.toLowerCase()}`;
}
