import { Injectable, Logger, OnModuleDestroy } from '@nestjs/common';
import { runDetached } from '../../../../common/trace/tracing';
import { RelayTransactionStore } from '../../store/relay-transaction.store';
import { ReceiptTracker } from '../track/receipt-tracker.service';

/** How long acceptances wait to be written together. */
const FLUSH_MS = 50;

/**
 * Marks broadcasts as accepted by the node (relay_broadcasts.broadcast_at, and the row's stage
 * signed → broadcast), many in one statement:
 * under load a statement per transaction only for this record cost as much as settling it.
 * The mark is informational (null = signed, acceptance not recorded yet); settlement marks the
 * mined broadcast itself, so a mark lost in a crash is restored for everything that is mined,
 * and one whose transaction was settled before the flush is not made again.
 */
@Injectable()
export class BroadcastMarks implements OnModuleDestroy {
  private readonly logger = new Logger(BroadcastMarks.name);
  private pending: Array<{ hash: string; txId?: string }> = [];
  private timer?: NodeJS.Timeout;

  constructor(
    private readonly txs: RelayTransactionStore,
    private readonly tracker: ReceiptTracker,
  ) {}

  /**
   * `txId`, for a first broadcast the tracker watches: when its receipt was found and settled
   * before the flush (instant mining), settlement marked it already and it is left out; a flush
   * left with nothing makes no statement.
   */
  accepted(hash: string, txId?: string): void {
    this.pending.push({ hash, txId });
    // The batch is many sends': its statement is in none of their traces.
    this.timer ??= runDetached('broadcast-marks', () => setTimeout(() => void this.flush(), FLUSH_MS));
  }

  async flush(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    const hashes = this.pending.filter((p) => p.txId === undefined || this.tracker.isTracking(p.txId)).map((p) => p.hash);
    this.pending = [];
    if (hashes.length === 0) return;
    try {
      await this.txs.markBroadcast(hashes);
    } catch (err) {
      this.logger.warn(`could not mark ${hashes.length} broadcast(s) as accepted: ${(err as Error).message}`);
    }
  }

  onModuleDestroy(): Promise<void> {
    return this.flush();
  }
}
