import { Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, In, LessThan } from 'typeorm';
import { AppConfig } from '../../../config/app-config';
import { ChainRegistry } from '../../chains/domain/chain-registry.service';
import { SendQueue } from '../domain/send-queue';
import { RelayBroadcastEntity } from '../entities/relay-broadcast.entity';
import { RelayTransactionEntity } from '../entities/relay-transaction.entity';
import { fromRpcReceipt } from '../sending/mined-receipt';
import { ReceiptTracker } from '../sending/receipt-tracker.service';

const GRACE_MS = 2_000;
const BATCH = 500;

export interface ReconcileReport {
  examined: number;
  enqueued: number;
  replaced: number;
  settled: number;
}

/**
 * PostgreSQL is the truth, Redis only transport: every pass looks at PENDING transactions
 * and makes sure each is either moving (a live job, a tracked hash) or is moved: unsent ones
 * are enqueued again, mined ones settled, stuck ones replaced with higher fees.
 */
@Injectable()
export class ReconcilerService {
  private readonly logger = new Logger(ReconcilerService.name);

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly chains: ChainRegistry,
    private readonly queue: SendQueue,
    private readonly tracker: ReceiptTracker,
    private readonly config: AppConfig,
  ) {}

  async reconcile(): Promise<ReconcileReport> {
    const report: ReconcileReport = { examined: 0, enqueued: 0, replaced: 0, settled: 0 };
    const pending = await this.dataSource.getRepository(RelayTransactionEntity).find({
      where: { status: 'PENDING', createdAt: LessThan(new Date(Date.now() - GRACE_MS)) },
      order: { createdAt: 'ASC' },
      take: BATCH,
    });
    if (pending.length === 0) return report;
    const live = await this.queue.liveTxIds();
    const broadcasts = await this.dataSource.getRepository(RelayBroadcastEntity).find({ where: { txId: In(pending.map((t) => t.id)) }, order: { id: 'ASC' } });
    const byTx = new Map<string, RelayBroadcastEntity[]>();
    for (const b of broadcasts) byTx.set(b.txId, [...(byTx.get(b.txId) ?? []), b]);
    const stamp = Date.now().toString(36);

    for (const tx of pending) {
      report.examined++;
      if (live.has(tx.id)) continue;
      const sent = byTx.get(tx.id) ?? [];
      try {
        if (sent.length === 0) {
          if (await this.queue.enqueue(tx.id, 'send', `r${stamp}`)) report.enqueued++;
          continue;
        }
        if (await this.settleIfMined(tx.chainId, sent)) {
          report.settled++;
          continue;
        }
        const last = sent[sent.length - 1];
        if (Date.now() - last.createdAt.getTime() > this.config.RELAY_REPLACE_AFTER_MS) {
          if (await this.queue.enqueue(tx.id, 'replace', `r${stamp}`)) report.replaced++;
        } else if (!this.tracker.isTracking(tx.id)) {
          // Nobody watches it (worker restarted, Redis flushed): send the same bytes again and track.
          if (await this.queue.enqueue(tx.id, 'send', `r${stamp}`)) report.enqueued++;
        }
      } catch (err) {
        this.logger.warn(`reconciling ${tx.id}: ${(err as Error).message.split('\n')[0]}`);
      }
    }
    if (report.enqueued || report.replaced || report.settled) this.logger.log(`reconciled ${JSON.stringify(report)}`);
    return report;
  }

  private async settleIfMined(chainId: number, sent: RelayBroadcastEntity[]): Promise<boolean> {
    const provider = this.chains.provider(chainId);
    for (const b of sent) {
      const raw = await provider.send('eth_getTransactionReceipt', [b.hash]);
      if (raw) {
        this.tracker.track(chainId, b.txId, b.hash, 0);
        await this.tracker.found(chainId, fromRpcReceipt(raw));
        return true;
      }
    }
    return false;
  }
}
