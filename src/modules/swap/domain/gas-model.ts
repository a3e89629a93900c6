import type { RoutePlan } from './types';

/**
 * Gas of SwapExecutor.swap, by shape, measured on the local stack (see the swap integration
 * test, which checks these against real receipts): a fixed part (pull, fee, balance checks,
 * payout, event), a part per leg (the transfer into its first pool) and a part per pool swap.
 */
export const EXECUTOR_GAS = { base: 110_000n, perLeg: 35_000n, perHop: 85_000n, wrapNative: 30_000n, unwrapNative: 25_000n };

export function estimateSwapGas(plan: Pick<RoutePlan, 'legs'>, nativeIn: boolean, nativeOut: boolean): bigint {
  const hops = plan.legs.reduce((sum, leg) => sum + BigInt(leg.path.hops.length), 0n);
  return (
    EXECUTOR_GAS.base +
    EXECUTOR_GAS.perLeg * BigInt(plan.legs.length) +
    EXECUTOR_GAS.perHop * hops +
    (nativeIn ? EXECUTOR_GAS.wrapNative : 0n) +
    (nativeOut ? EXECUTOR_GAS.unwrapNative : 0n)
  );
}
