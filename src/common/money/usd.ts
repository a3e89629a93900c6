/**
 * Money is integer micro-USD (1 USD = 1,000,000) everywhere inside the service; JSON numbers
 * in USD exist only at the API boundary, as interface.md requires.
 */
export const MICRO_PER_USD = 1_000_000n;

/** Parses a USD amount given as a number or decimal string without going through float math. */
export function usdToMicro(usd: number | string): bigint {
  if (typeof usd === 'number') {
    if (!Number.isFinite(usd)) throw new RangeError(`not a USD amount: ${usd}`);
    // toFixed switches to exponent notation from 1e21; doubles that large are whole numbers.
    if (Math.abs(usd) >= 1e21) return BigInt(usd) * MICRO_PER_USD;
  }
  const text = typeof usd === 'number' ? usd.toFixed(6) : usd.trim();
  const match = /^(-?)(\d+)(?:\.(\d{0,6})\d*)?$/.exec(text);
  if (!match) throw new RangeError(`not a USD amount: ${String(usd)}`);
  const [, sign, whole, frac = ''] = match;
  const micro = BigInt(whole) * MICRO_PER_USD + BigInt(frac.padEnd(6, '0'));
  return sign ? -micro : micro;
}

/** micro-USD to the JSON number clients see; exact for any balance below 9 billion USD. */
export function microToUsd(micro: bigint): number {
  return Number(micro) / 1e6;
}
