/** Enough for every key of a busy deployment to be over its limit at once; past it the oldest entries go. */
const MAX_ENTRIES = 10_000;

/**
 * The buckets this instance last saw at or over their limit. A request of such a bucket is
 * checked before its handler runs even on routes that check alongside, so a client hammering
 * past its limit costs no handler work; any answer with room left removes the bucket. Memory
 * only decides when the check waits, never whether a request passes: that is always Redis.
 */
export class ExhaustedBuckets {
  private readonly buckets = new Set<string>();

  has(bucket: string): boolean {
    return this.buckets.has(bucket);
  }

  record(bucket: string, allowed: boolean, remaining: number): void {
    if (allowed && remaining > 0) {
      this.buckets.delete(bucket);
      return;
    }
    this.buckets.add(bucket);
    if (this.buckets.size > MAX_ENTRIES) this.buckets.delete(this.buckets.values().next().value as string);
  }
}
