import type { ChainDefinition } from '../../chains';

export interface BridgeAsset {
  /** Lowercase token addresses on each side. */
  src: string;
  dest: string;
  symbol: string;
  srcDecimals: number;
  destDecimals: number;
}

/**
 * The assets the bridge carries between two chains: the USD stablecoins listed on both under
 * the same symbol (the spokes' inventory is held in them). Ordered as listed on the source.
 */
export function bridgeAssets(src: ChainDefinition, dest: ChainDefinition): BridgeAsset[] {
  const destTokens = (dest.tokens ?? []).filter((t) => t.usdStable === true);
  return (src.tokens ?? [])
    .filter((t) => t.usdStable === true)
    .flatMap((t) => {
      const other = destTokens.find((d) => d.symbol === t.symbol);
      return other ? [{ src: t.address.toLowerCase(), dest: other.address.toLowerCase(), symbol: t.symbol, srcDecimals: t.decimals, destDecimals: other.decimals }] : [];
    });
}

/** Source units of a bridge asset as destination units (decimals may differ between chains). */
export function toDestUnits(amount: bigint, asset: BridgeAsset): bigint {
  if (asset.destDecimals === asset.srcDecimals) return amount;
  return asset.destDecimals > asset.srcDecimals ? amount * 10n ** BigInt(asset.destDecimals - asset.srcDecimals) : amount / 10n ** BigInt(asset.srcDecimals - asset.destDecimals);
}

export function toSrcUnits(amount: bigint, asset: BridgeAsset): bigint {
  return toDestUnits(amount, { ...asset, srcDecimals: asset.destDecimals, destDecimals: asset.srcDecimals });
}

/** Gas of a fill paying out directly; a fill that swaps adds its route's gas. */
export const FILL_GAS = 120_000n;

/**
 * The bridge fee in destination units of a USD stablecoin: the destination gas of the fill at
 * today's fees and native price, plus the filler's capital cost (`capitalBps` of the amount).
 * Rounded up so the fee never falls short of the gas.
 */
export function bridgeFee(p: { amountDest: bigint; destDecimals: number; gasWei: bigint; nativeUsd: number; capitalBps: number }): bigint {
  const gasUsdMicro = BigInt(Math.ceil((Number(p.gasWei) / 1e18) * p.nativeUsd * 1e6));
  const gasUnits = p.destDecimals >= 6 ? gasUsdMicro * 10n ** BigInt(p.destDecimals - 6) : (gasUsdMicro + 10n ** BigInt(6 - p.destDecimals) - 1n) / 10n ** BigInt(6 - p.destDecimals);
  const capital = (p.amountDest * BigInt(p.capitalBps) + 9_999n) / 10_000n;
  return gasUnits + capital;
}

/**
 * Expected time from the deposit's inclusion to the fill: the source's blocks up to its
 * `confirmations` depth, one filler pass, and one destination block for the fill.
 */
export function estimatedBridgeTimeMs(src: ChainDefinition, dest: ChainDefinition, confirmations: number, passMs: number): number {
  const blockMs = (c: ChainDefinition): number => (c.capabilities.flashBlocks ? 2_000 : 12_000);
  return blockMs(src) * (confirmations + 1) + passMs + blockMs(dest);
}
