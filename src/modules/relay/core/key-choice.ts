/**
 * Which relayer key takes the next transaction: the least loaded key still under its cap, so a
 * burst spreads over every key instead of queueing on one. Ties go to the first key at or after
 * `start` (the caller rotates it), so an idle pool is used round-robin. -1 when every key is full.
 */
export function pickKey(loads: readonly number[], caps: readonly number[], start: number): number {
  const n = loads.length;
  let best = -1;
  for (let i = 0; i < n; i++) {
    const k = (((start + i) % n) + n) % n;
    if (loads[k] >= caps[k]) continue;
    if (best === -1 || loads[k] < loads[best]) best = k;
  }
  return best;
}

/**
 * The cap a node's "txpool full / too many pending" refusal teaches for a sender: the node held
 * the others in flight but not this one, so no new nonce goes to the key until one of them is
 * mined. Never above the configured bound, never below one (a key is never shut out for good).
 */
export function capAfterRefusal(inFlight: number, bound: number): number {
  return Math.max(1, Math.min(bound, inFlight - 1));
}
