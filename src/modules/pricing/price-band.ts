/**
 * The sanity band: each chain's last good price (its anchor), set by the chain's most trusted
 * live source. A live reading more than `bandPercent` away from an anchor younger than `windowMs`
 * is refused; once the anchor is older than that (the market really moved and stayed), the next
 * fresh reading of the trusted source anchors again.
 */
export class PriceAnchors {
  private readonly anchors = new Map<number, { usd: number; at: number }>();

  constructor(
    private readonly bandPercent: number,
    private readonly windowMs: number,
  ) {}

  /** Null when `usd` may be used, else why not. */
  check(chainId: number, usd: number, now: number): string | null {
    const anchor = this.anchors.get(chainId);
    if (!anchor || now - anchor.at > this.windowMs) return null;
    const deviation = (Math.abs(usd - anchor.usd) / anchor.usd) * 100;
    if (deviation <= this.bandPercent) return null;
    return `${usd} is ${deviation.toFixed(1)}% away from the last good price ${anchor.usd} (band ${this.bandPercent}%)`;
  }

  set(chainId: number, usd: number, now: number): void {
    this.anchors.set(chainId, { usd, at: now });
  }
}
