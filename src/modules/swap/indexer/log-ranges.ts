/** Default blocks per eth_getLogs call (extensions.md: providers' `getLogsMaxRange`). */
export const DEFAULT_GET_LOGS_MAX_RANGE = 2_000;

/** A provider's refusal of a range as too wide or too full: the same range split smaller may pass. */
export function isRangeRefusal(err: unknown): boolean {
  const text = String((err as { message?: unknown })?.message ?? err).toLowerCase();
  return /range (is )?too (large|wide|big)|block range|too many (results|logs)|exceeds? (the )?(max|limit)|query returned more than|limit exceeded|response size|limited to/.test(text);
}

/**
 * Reads [from, to] in consecutive ranges of at most `maxRange` blocks, in order; a range the
 * provider refuses as too large is halved and retried (down to one block, then the error
 * stands). `onRange` sees each range after its logs are read (a caller persists progress there).
 */
export async function readInRanges<T>(
  from: number,
  to: number,
  maxRange: number,
  read: (from: number, to: number) => Promise<T[]>,
  onRange: (items: T[], to: number) => Promise<void>,
): Promise<void> {
  let span = Math.max(1, maxRange);
  let start = from;
  while (start <= to) {
    const end = Math.min(to, start + span - 1);
    let items: T[];
    try {
      items = await read(start, end);
    } catch (err) {
      if (end > start && isRangeRefusal(err)) {
        span = Math.max(1, Math.floor((end - start + 1) / 2));
        continue;
      }
      throw err;
    }
    await onRange(items, end);
    start = end + 1;
  }
}
