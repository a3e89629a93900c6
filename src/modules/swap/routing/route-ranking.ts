export type RouteMode = 'fastest' | 'max_value' | 'suggested';

export const ROUTE_MODES: readonly RouteMode[] = ['fastest', 'max_value', 'suggested'];

/** interface.md: unknown (or absent) falls back to max_value. */
export function parseRouteMode(value: string | undefined): RouteMode {
  return (ROUTE_MODES as readonly string[]).includes(value ?? '') ? (value as RouteMode) : 'max_value';
}

export interface Rankable {
  amountOut: bigint;
  /** Output in USD net of the gas cost in USD; null when either price is unknown. */
  netUsd: number | null;
  /** Pool swaps the route makes in total (a 2-leg split of 1 and 2 hops makes 3). */
  swaps: number;
}

/** Each extra pool swap must be worth this share of the output under `suggested`. */
const SUGGESTED_PENALTY_PER_SWAP = 0.001;

/**
 * decisions.md: max_value ranks by output net of gas in USD; fastest by fewest hops, then output;
 * suggested by net output discounted 0.1% per extra pool swap, so a longer route must pay for
 * its extra risk and latency. Without USD prices the raw output decides.
 */
export function compareRoutes(mode: RouteMode): (a: Rankable, b: Rankable) => number {
  const byOutput = (a: Rankable, b: Rankable): number => (b.amountOut > a.amountOut ? 1 : b.amountOut < a.amountOut ? -1 : 0);
  const byNet = (a: Rankable, b: Rankable): number => (a.netUsd !== null && b.netUsd !== null && a.netUsd !== b.netUsd ? b.netUsd - a.netUsd : byOutput(a, b));
  if (mode === 'fastest') return (a, b) => a.swaps - b.swaps || byOutput(a, b);
  if (mode === 'suggested') {
    const score = (r: Rankable): number | null => (r.netUsd === null ? null : r.netUsd * (1 - SUGGESTED_PENALTY_PER_SWAP * (r.swaps - 1)));
    return (a, b) => {
      const sa = score(a);
      const sb = score(b);
      return sa !== null && sb !== null && sa !== sb ? sb - sa : byOutput(a, b);
    };
  }
  return byNet;
}
