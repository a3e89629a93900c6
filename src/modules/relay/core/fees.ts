/** Fee settings a transaction is signed with. */
export type FeeSettings = { type: 'legacy'; gasPrice: bigint } | { type: 'eip1559'; maxFeePerGas: bigint; maxPriorityFeePerGas: bigint };

export function maxGasPrice(fees: FeeSettings): bigint {
  return fees.type === 'legacy' ? fees.gasPrice : fees.maxFeePerGas;
}

/** Fees raised by at least `percent` (nodes want >= 10% for a replacement) and never below `floor`. */
export function bumpFees(fees: FeeSettings, percent: number, floor?: FeeSettings): FeeSettings {
  const up = (v: bigint) => (v * BigInt(100 + percent) + 99n) / 100n;
  if (fees.type === 'legacy') {
    const bumped = up(fees.gasPrice);
    const min = floor ? maxGasPrice(floor) : 0n;
    return { type: 'legacy', gasPrice: bumped > min ? bumped : min };
  }
  let maxFeePerGas = up(fees.maxFeePerGas);
  let maxPriorityFeePerGas = up(fees.maxPriorityFeePerGas);
  if (floor?.type === 'eip1559') {
    if (floor.maxFeePerGas > maxFeePerGas) maxFeePerGas = floor.maxFeePerGas;
    if (floor.maxPriorityFeePerGas > maxPriorityFeePerGas) maxPriorityFeePerGas = floor.maxPriorityFeePerGas;
  }
  return { type: 'eip1559', maxFeePerGas, maxPriorityFeePerGas };
}

/** micro-USD for an amount of wei at a USD price per whole native unit, rounded up (the relay never undercharges). */
export function weiToMicroUsd(wei: bigint, usdPerNative: number, decimals = 18): bigint {
  const priceMicro = BigInt(Math.round(usdPerNative * 1e6));
  const denominator = 10n ** BigInt(decimals);
  return (wei * priceMicro + denominator - 1n) / denominator;
}
