/** One element of `allowedTargets` (extensions.md): a contract, optionally on one chain and limited to some methods. */
export interface AllowedTarget {
  /** Absent: the address on every chain. */
  chainId?: number;
  /** Lowercase 0x address. */
  address: string;
  /** Lowercase 4-byte selectors (`0xa9059cbb`); absent or empty: every method, and plain value transfers. */
  selectors?: string[];
}

/** The call a policy decides on: the target and the first 4 bytes of the call data. */
export interface TargetCall {
  chainId: number;
  to: string;
  callData: string;
}

/** The 4-byte selector of the call data, or null for a call without one (a transfer, short data). */
export function selectorOf(callData: string): string | null {
  const hex = callData.toLowerCase();
  return /^0x[0-9a-f]{8}/.test(hex) ? hex.slice(0, 10) : null;
}

/** True when the list allows the call; an empty list allows everything. */
export function targetAllowed(targets: readonly AllowedTarget[], call: TargetCall): boolean {
  if (targets.length === 0) return true;
  const to = call.to.toLowerCase();
  const selector = selectorOf(call.callData);
  return targets.some(
    (t) =>
      t.address === to &&
      (t.chainId === undefined || t.chainId === call.chainId) &&
      (!t.selectors || t.selectors.length === 0 || (selector !== null && t.selectors.includes(selector))),
  );
}
