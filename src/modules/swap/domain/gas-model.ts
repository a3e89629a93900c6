import type { RoutePlan } from './types';

/**
 * Gas of SwapExecutor.swap, by shape, measured on the local stack (see the swap integration
 * test, which checks these against real receipts): a fixed part (pull, fee, balance checks,
 * payout, event), a part per leg (the transfer into its first pool) and a part per pool swap:
 * a V2 pair swap, or a V3 pool swap (callback, token reads) plus each initialized tick it
 * crosses.
 */
export const EXECUTOR_GAS = {
  base: 110_000n,
  perLeg: 35_000n,
  perHop: 85_000n,
  perV3Hop: 125_000n,
  perV3TickCrossed: 30_000n,
  wrapNative: 30_000n,
  unwrapNative: 25_000n,
};

/** Gas of one hop; `ticksCrossed` only for V3 pools (the router's simulation counts them). */
export function hopGas(kind: 'v2' | 'v3', ticksCrossed = 0): bigint {
  return kind === 'v2' ? EXECUTOR_GAS.perHop : EXECUTOR_GAS.perV3Hop + EXECUTOR_GAS.perV3TickCrossed * BigInt(ticksCrossed);
}

export function estimateSwapGas(plan: Pick<RoutePlan, 'legs'>, nativeIn: boolean, nativeOut: boolean): bigint {
  let hops = 0n;
  for (const leg of plan.legs) leg.path.hops.forEach((hop, h) => (hops += hopGas(hop.pool.kind, leg.ticksCrossed?.[h] ?? 0)));
  return (
    EXECUTOR_GAS.base +
    EXECUTOR_GAS.perLeg * BigInt(plan.legs.length) +
    hops +
    (nativeIn ? EXECUTOR_GAS.wrapNative : 0n) +
    (nativeOut ? EXECUTOR_GAS.unwrapNative : 0n)
  );
}
