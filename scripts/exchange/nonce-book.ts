/**
 * Replay protection of the local exchange, modelled on Hyperliquid's: a nonce is a millisecond
 * timestamp that must lie in (now - 2 days, now + 1 day) and may be used once per trader.
 * The window is what keeps memory bounded: a nonce that fell out of it is rejected as stale anyway,
 * so it no longer needs remembering.
 */

/** Oldest accepted nonce, relative to the exchange's clock. */
export const NONCE_MAX_AGE_MS = 2 * 24 * 60 * 60 * 1000;
/** Furthest-future accepted nonce: tolerates client clock skew without letting nonces be banked for long. */
export const NONCE_MAX_AHEAD_MS = 24 * 60 * 60 * 1000;

export class NonceBook {
  private readonly used = new Map<string, Set<number>>();

  /** Records the nonce for the trader and returns undefined, or returns why it cannot be used. */
  claim(trader: string, nonce: number, now: number): string | undefined {
    const oldest = now - NONCE_MAX_AGE_MS;
    if (nonce <= oldest) return `stale nonce ${nonce}: older than ${NONCE_MAX_AGE_MS / 3_600_000} hours`;
    if (nonce >= now + NONCE_MAX_AHEAD_MS) return `nonce ${nonce} is more than ${NONCE_MAX_AHEAD_MS / 3_600_000} hours in the future`;

    const nonces = this.used.get(trader) ?? new Set<number>();
    if (nonces.has(nonce)) return `nonce ${nonce} already used by ${trader}`;
    for (const old of nonces) if (old <= oldest) nonces.delete(old);
    nonces.add(nonce);
    this.used.set(trader, nonces);
    return undefined;
  }
}
