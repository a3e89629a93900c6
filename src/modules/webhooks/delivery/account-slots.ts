/** A turned-away attempt asks again after this much per round of the account's backlog. */
const DEFER_STEP_MS = 100;
/** Past this, the oldest remembered waiting deliveries of an account are forgotten (estimate only). */
const MAX_WAITING_TRACKED = 10_000;

/**
 * At most `perAccount` delivery attempts of one account at once in this worker, so one account's
 * slow or hanging endpoints hold at most that many of the worker's WEBHOOK_CONCURRENCY slots and
 * every other account keeps the rest. In process, because the slots it shares out are this
 * process's: with several workers each bounds the account the same way.
 */
export class AccountSlots {
  private readonly busy = new Map<string, number>();
  /** Deliveries of an account turned away and not yet run, to space out their next tries. */
  private readonly waiting = new Map<string, Set<string>>();

  constructor(
    private readonly perAccount: number,
    private readonly maxDeferMs: number,
    private readonly random: () => number = Math.random,
  ) {}

  /** Takes a slot of `userId` for `deliveryId`, or false when the account has all of its slots in use. */
  tryAcquire(userId: string, deliveryId: string): boolean {
    const inUse = this.busy.get(userId) ?? 0;
    const waiting = this.waiting.get(userId);
    if (inUse >= this.perAccount) {
      const set = waiting ?? new Set<string>();
      set.add(deliveryId);
      if (set.size > MAX_WAITING_TRACKED) set.delete(set.values().next().value as string);
      this.waiting.set(userId, set);
      return false;
    }
    waiting?.delete(deliveryId);
    if (waiting?.size === 0) this.waiting.delete(userId);
    this.busy.set(userId, inUse + 1);
    return true;
  }

  release(userId: string): void {
    const inUse = (this.busy.get(userId) ?? 1) - 1;
    if (inUse <= 0) this.busy.delete(userId);
    else this.busy.set(userId, inUse);
  }

  inUse(userId: string): number {
    return this.busy.get(userId) ?? 0;
  }

  /**
   * How long a turned-away attempt waits before it asks again: a round of the account's backlog
   * (its waiting deliveries over its slots) times a step, with jitter, at most `maxDeferMs`, so a
   * backlog of thousands does not spin through the queue while its few slots are busy.
   */
  deferMs(userId: string): number {
    const rounds = Math.ceil(((this.waiting.get(userId)?.size ?? 0) + 1) / this.perAccount);
    return Math.min(this.maxDeferMs, DEFER_STEP_MS * rounds) + Math.floor(this.random() * DEFER_STEP_MS);
  }
}
