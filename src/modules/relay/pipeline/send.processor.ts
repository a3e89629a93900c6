import { Processor, WorkerHost } from '@nestjs/bullmq';
import { Logger, OnModuleInit } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { Job } from 'bullmq';
import { DataSource } from 'typeorm';
import { runWithTrace } from '../../../common/trace/trace-context';
import { AppConfig } from '../../../config/app-config';
import { returningRows } from '../../../database/returning-rows';
import { QUEUES } from '../../../queue/queue-names';
import { AccountEntity } from '../../accounts/entities/account.entity';
import { fromJobRow } from './send-job-row';
import { SendJob, SendQueue } from './send-queue';
import { RelayTransactionEntity } from '../store/relay-transaction.entity';
import { PermanentSendError, SenderService, TransientSendError } from './sender.service';
import { SettlementService } from './settlement.service';

/**
 * Thin consumer: runs a send or replacement and applies the retry policy of the account
 * (maxRetries, transient failures only). Logs run under the transaction id as trace id.
 */
/**
 * Short locks: a killed worker's jobs are detected as stalled and handed to another worker
 * within seconds instead of BullMQ's default half minute to a minute.
 */
@Processor(QUEUES.relaySend, { lockDuration: 10_000, stalledInterval: 5_000, maxStalledCount: 3 })
export class SendProcessor extends WorkerHost implements OnModuleInit {
  private readonly logger = new Logger(SendProcessor.name);

  constructor(
    private readonly sender: SenderService,
    private readonly settlement: SettlementService,
    private readonly queue: SendQueue,
    private readonly config: AppConfig,
    @InjectDataSource() private readonly dataSource: DataSource,
  ) {
    super();
  }

  onModuleInit(): void {
    this.worker.concurrency = this.config.RELAY_SEND_CONCURRENCY;
  }

  async process(job: Job<SendJob>): Promise<void> {
    const { txId, mode, row } = job.data;
    await runWithTrace(`tx-${txId}`, async () => {
      try {
        if (mode === 'replace') await this.sender.replace(txId);
        else await this.sender.send(txId, row ? fromJobRow(row) : undefined);
      } catch (err) {
        if (err instanceof TransientSendError) return this.retryOrFail(txId, err.message);
        if (err instanceof PermanentSendError) return this.giveUp(txId, err.message);
        this.logger.error(`send ${txId} failed unexpectedly: ${(err as Error).stack ?? String(err)}`);
        return this.retryOrFail(txId, (err as Error).message);
      }
    });
  }

  /**
   * FAILED only when nothing of the transaction can still land; one waiting in the node's pool
   * (or whose state the chain cannot tell now) stays PENDING for the tracker and reconciler.
   */
  private async giveUp(txId: string, reason: string): Promise<void> {
    const safe = await this.sender.abandon(txId).catch((err: Error) => {
      this.logger.error(`could not check ${txId} on chain before failing it: ${err.message}`);
      return false;
    });
    if (safe) await this.settlement.failUnsent(txId, reason);
    else this.logger.warn(`${txId} kept PENDING: a broadcast of it may still be mined (${reason})`);
  }

  private async retryOrFail(txId: string, reason: string): Promise<void> {
    const rows = returningRows<{ retries: number; max_retries: number }>(
      await this.dataSource.query(
      `UPDATE relay_transactions t SET retries = t.retries + 1 FROM accounts a
        WHERE t.id = $1 AND a.id = t.user_id AND t.status = 'PENDING' AND t.retries < a.max_retries
        RETURNING t.retries, a.max_retries`,
        [txId],
      ),
    );
    if (rows.length === 0) {
      const tx = await this.dataSource.getRepository(RelayTransactionEntity).findOneBy({ id: txId });
      if (tx?.status === 'PENDING') {
        const account = await this.dataSource.getRepository(AccountEntity).findOneBy({ id: tx.userId });
        this.logger.warn(`giving up on ${txId} after ${tx.retries} retries (max ${account?.maxRetries}): ${reason}`);
        await this.giveUp(txId, `${reason} (after ${tx.retries} retries)`);
      }
      return;
    }
    const retry = rows[0].retries;
    const delay = Math.min(500 * 2 ** (retry - 1), 30_000);
    this.logger.warn(`retry ${retry}/${rows[0].max_retries} of ${txId} in ${delay} ms: ${reason}`);
    await this.queue.enqueue(txId, 'send', retry, delay);
  }
}
