/** micro-USD as an exact decimal string with 6 places (`-0.012345`), for CSV cells and recorded prices. */
export function microToDecimal(micro: bigint): string {
  const sign = micro < 0n ? '-' : '';
  const abs = micro < 0n ? -micro : micro;
  return `${sign}${abs / 1_000_000n}.${(abs % 1_000_000n).toString().padStart(6, '0')}`;
}
