import { Injectable, Logger } from '@nestjs/common';
import { AppConfig } from '../../../../config/app-config';
import { RelayBroadcastEntity } from '../../store/relay-broadcast.entity';
import { RelayBroadcastStore } from '../../store/relay-broadcast.store';
import { RelayTransactionEntity } from '../../store/relay-transaction.entity';
import { RelayTransactionStore } from '../../store/relay-transaction.store';
import { SendQueue } from '../send/send-queue';
import { MinedCheck } from '../track/mined-check';
import { ReceiptTracker } from '../track/receipt-tracker.service';

const GRACE_MS = 2_000;
const BATCH = 500;

/** What one pass over the in-flight rows did. */
export interface InFlightReport {
  examined: number;
  enqueued: number;
  replaced: number;
  settled: number;
}

/**
 * Every in-flight row is either moving (a live job, a tracked hash) or is moved: unsent ones
 * are enqueued again, mined ones settled, stuck ones replaced with higher fees.
 */
@Injectable()
export class InFlightPass {
  private readonly logger = new Logger(InFlightPass.name);

  constructor(
    private readonly txs: RelayTransactionStore,
    private readonly broadcastRows: RelayBroadcastStore,
    private readonly queue: SendQueue,
    private readonly tracker: ReceiptTracker,
    private readonly config: AppConfig,
    private readonly mined: MinedCheck,
  ) {}

  async run(report: InFlightReport): Promise<void> {
    const pending = await this.txs.inFlightBefore(new Date(Date.now() - GRACE_MS), BATCH);
    if (pending.length === 0) return;
    const live = await this.queue.liveTxIds();
    const broadcasts = await this.broadcastRows.forTxs(pending.map((t) => t.id));
    const byTx = new Map<string, RelayBroadcastEntity[]>();
    for (const b of broadcasts) byTx.set(b.txId, [...(byTx.get(b.txId) ?? []), b]);
    const stamp = Date.now().toString(36);
    const quietMs = Math.max(GRACE_MS, 4 * this.config.RELAY_RECEIPT_POLL_MS);

    const quiet: Array<{ tx: RelayTransactionEntity; sent: RelayBroadcastEntity[] }> = [];
    for (const tx of pending) {
      report.examined++;
      if (live.has(tx.id)) continue;
      const sent = byTx.get(tx.id) ?? [];
      if (sent.length > 0) {
        quiet.push({ tx, sent });
        continue;
      }
      try {
        if (await this.queue.enqueue(tx.id, 'send', `r${stamp}`)) report.enqueued++;
      } catch (err) {
        this.logger.warn(`reconciling ${tx.id}: ${(err as Error).message.split('\n')[0]}`);
      }
    }
    // Read again just before the chain calls: under load the tracker settles hundreds of the rows
    // read above while this pass runs, and each would cost a receipt call here for nothing.
    const stillSent = await this.txs.stillSent(quiet.map((q) => q.tx.id));
    for (const { tx, sent } of quiet) {
      if (!stillSent.has(tx.id)) continue;
      try {
        const age = Date.now() - sent[sent.length - 1].createdAt.getTime();
        // Broadcast moments ago, or watched by this process's tracker and not yet due for a
        // replacement: the tracker finds it with one call per block, no receipt call per row here.
        if (age < quietMs || (age <= this.config.RELAY_REPLACE_AFTER_MS && this.tracker.isTracking(tx.id))) continue;
        if (await this.mined.settleIfMined(tx, sent)) {
          report.settled++;
          continue;
        }
        if (age > this.config.RELAY_REPLACE_AFTER_MS) {
          if (await this.queue.enqueue(tx.id, 'replace', `r${stamp}`)) report.replaced++;
        } else {
          // Nobody here watches it (worker restarted, Redis flushed): send the same bytes again and track.
          if (await this.queue.enqueue(tx.id, 'send', `r${stamp}`)) report.enqueued++;
        }
      } catch (err) {
        this.logger.warn(`reconciling ${tx.id}: ${(err as Error).message.split('\n')[0]}`);
      }
    }
  }
}
