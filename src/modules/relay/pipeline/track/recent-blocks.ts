/** A receipt as eth_getBlockReceipts returns it. */
export type RawReceipt = Record<string, unknown>;

/**
 * The receipts of the blocks a chain watch read last, so that a scan sent back to a block it has
 * read (a broadcast answered while the scan ran may be in it) looks there again without asking
 * the node. In a 1 s-block burst the second read of a block of 152 or 168 receipts took
 * 36–46 ms of node and parse work, beside that block's own settlement statement. A block read
 * once does not change unless a reorg replaces it: `clear()` (a look-back for a resend or a
 * cancellation, a pass that leaves the watch with nothing to find) drops everything, and a read
 * that was under way when it did is not kept. Bounded by blocks and by receipts; the oldest read
 * goes first.
 */
export class RecentBlocks {
  private readonly blocks = new Map<number, readonly RawReceipt[]>();
  private receipts = 0;
  /** Bumped by clear(): a read started before it is not kept. */
  generation = 0;

  constructor(
    private readonly maxBlocks = 64,
    private readonly maxReceipts = 4096,
  ) {}

  get(block: number): readonly RawReceipt[] | undefined {
    return this.blocks.get(block);
  }

  /** Keeps a block's receipts read in `generation`. */
  put(block: number, receipts: readonly RawReceipt[], generation: number): void {
    if (generation !== this.generation || this.blocks.has(block) || receipts.length > this.maxReceipts) return;
    this.blocks.set(block, receipts);
    this.receipts += receipts.length;
    for (const [oldest, dropped] of this.blocks) {
      if (this.blocks.size <= this.maxBlocks && this.receipts <= this.maxReceipts) break;
      this.blocks.delete(oldest);
      this.receipts -= dropped.length;
    }
  }

  clear(): void {
    this.generation++;
    this.blocks.clear();
    this.receipts = 0;
  }
}
