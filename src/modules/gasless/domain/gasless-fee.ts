/**
 * Gas the settler adds around the executor's swap: Permit2 signature check and transfer, the fee
 * transfer, approve/reset of the executor, the receiver balance reads and the event. Measured
 * from settlement receipts on the local stack (about 60k; test/gasless.e2e-spec.ts checks the
 * settlement fits in route gas + this), with headroom for cold storage on other chains.
 */
export const SETTLER_OVERHEAD_GAS = 90_000n;

export interface FeeInput {
  /** Gas of the whole settlement: the route's executor gas plus SETTLER_OVERHEAD_GAS. */
  settlementGas: bigint;
  gasPrice: bigint;
  /** Headroom over today's gas price, since the user signs now and the relay pays later. */
  marginBps: number;
  /** Wrapped native per whole input token, from the pool indexer's prices. */
  tokenPriceInNative: number;
  tokenDecimals: number;
  amount: bigint;
  feeBps: number;
}

export interface GaslessFee {
  /** The relay's cost of the settlement, in input-token units. */
  relayFee: bigint;
  integratorFee: bigint;
  total: bigint;
}

/**
 * The gasless fee in input-token units: the settlement's gas cost converted at the pool price
 * (rounded up, so the relay is never paid less than its estimate) plus the integrator's bps.
 * Null when the token has no native price, i.e. no fee can be quoted.
 */
export function gaslessFee(input: FeeInput): GaslessFee | null {
  if (!Number.isFinite(input.tokenPriceInNative)) return null;
  const weiPerToken = BigInt(Math.round(input.tokenPriceInNative * 1e18));
  if (weiPerToken <= 0n) return null;
  const costWei = (input.settlementGas * input.gasPrice * BigInt(10_000 + input.marginBps)) / 10_000n;
  const scale = 10n ** BigInt(input.tokenDecimals);
  const relayFee = (costWei * scale + weiPerToken - 1n) / weiPerToken;
  const integratorFee = (input.amount * BigInt(input.feeBps)) / 10_000n;
  return { relayFee, integratorFee, total: relayFee + integratorFee };
}
