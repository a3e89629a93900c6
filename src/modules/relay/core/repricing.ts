import { bumpFees, FeeSettings, maxGasPrice } from './fees';

/**
 * The highest max fee per gas a re-signed transaction may carry: `multiple` × the max fee the
 * row was accepted (and reserved) with, and no higher than the fee at which its worst case
 * (gasLimit × maxFee, priced at the reservation's own rate) reaches the account's per-tx limit.
 */
export function feeCap(input: { acceptedMaxFee: bigint; multiple: number; estimatedCostMicro: bigint; perTxLimitMicro: bigint | null }): bigint {
  const byMultiple = input.acceptedMaxFee * BigInt(input.multiple);
  if (input.perTxLimitMicro === null || input.estimatedCostMicro <= 0n) return byMultiple;
  const byLimit = (input.acceptedMaxFee * input.perTxLimitMicro) / input.estimatedCostMicro;
  return byLimit < byMultiple ? byLimit : byMultiple;
}

/**
 * Fees for signing a row again at its nonce. `replacing`: the last signature may sit in a pool,
 * so the new one must beat it by `bumpPercent` (nodes want ≥ 10%); otherwise (the node refused
 * it as under the base fee) fresh market fees are enough. Never under the market, never above
 * `cap`; null when the cap leaves no price the node would take (under the next base fee, or
 * not a valid replacement): then the transaction waits at its price.
 */
export function repricedFees(input: { last: FeeSettings; market: FeeSettings; bumpPercent: number; replacing: boolean; cap: bigint; baseFee: bigint | null }): FeeSettings | null {
  const { last, market, cap } = input;
  const target = input.replacing ? bumpFees(last, input.bumpPercent, market) : atLeast(market, last);
  const required = input.replacing ? maxGasPrice(bumpFees(last, input.bumpPercent)) : (input.baseFee ?? 0n);
  if (maxGasPrice(target) <= cap) return target;
  if (cap < required || (input.baseFee !== null && cap < input.baseFee)) return null;
  if (target.type === 'legacy') return { type: 'legacy', gasPrice: cap };
  const priority = target.maxPriorityFeePerGas > cap ? cap : target.maxPriorityFeePerGas;
  const floor = bumpFees(last, input.bumpPercent);
  if (input.replacing && floor.type === 'eip1559' && priority < floor.maxPriorityFeePerGas) return null;
  return { type: 'eip1559', maxFeePerGas: cap, maxPriorityFeePerGas: priority };
}

/** The market's fees, with the tip never below the last signature's (a re-price is not a discount). */
function atLeast(market: FeeSettings, last: FeeSettings): FeeSettings {
  if (market.type === 'legacy' || last.type === 'legacy') return market;
  return { ...market, maxPriorityFeePerGas: market.maxPriorityFeePerGas > last.maxPriorityFeePerGas ? market.maxPriorityFeePerGas : last.maxPriorityFeePerGas };
}
