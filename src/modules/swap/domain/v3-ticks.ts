import type { V3Tick } from './types';

/** Index in `ticks` (ascending) of the last tick with index <= t; -1 when none. */
export function lastTickAtOrBelow(ticks: V3Tick[], t: number): number {
  let lo = 0;
  let hi = ticks.length - 1;
  let found = -1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (ticks[mid].index <= t) {
      found = mid;
      lo = mid + 1;
    } else hi = mid - 1;
  }
  return found;
}
