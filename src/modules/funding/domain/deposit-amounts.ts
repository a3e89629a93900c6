/**
 * What a deposit is worth in micro-USD, rounded down (a fraction of a micro-dollar is not
 * credited): a USD stablecoin 1:1 from its decimals; the native currency at `priceMicroUsd` per
 * whole unit.
 */
export function stableToMicro(amount: bigint, decimals: number): bigint {
  return decimals >= 6 ? amount / 10n ** BigInt(decimals - 6) : amount * 10n ** BigInt(6 - decimals);
}

export function nativeToMicro(amountWei: bigint, priceMicroUsd: bigint, decimals: number): bigint {
  return (amountWei * priceMicroUsd) / 10n ** BigInt(decimals);
}

/** The ledger reference of a deposit (extensions.md): unique per transfer. */
export function depositReference(chainId: number, txHash: string, logIndex: number): string {
  return `dep:${chainId}:${txHash.toLowerCase()}:${logIndex}`;
}
