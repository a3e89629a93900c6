import { Processor, WorkerHost } from '@nestjs/bullmq';
import { Logger, OnModuleInit } from '@nestjs/common';
import { Job } from 'bullmq';
import { runWithTrace, txTraceId } from '../../../../common/trace/trace-context';
import { rememberTxTrace, runJobTraced } from '../../../../common/trace/tracing';
import { AppConfig } from '../../../../config/app-config';
import { QUEUES } from '../../../../queue/queue-names';
import { MetricsService } from '../../../metrics';
import { fromJobRow } from './send-job-row';
import { jobFees, SendJob, SendQueue } from './send-queue';
import { RelayTransactionStore } from '../../store/relay-transaction.store';
import { Abandonment } from '../settle/abandonment.service';
import { BackPressureError, PermanentSendError, TransientSendError } from './send-errors';
import { RpcUnavailableError } from '../../../../common/evm/rpc-unavailable';
import { FirstSend } from './first-send.service';
import { Replacement } from './replacement.service';
import { IN_FLIGHT } from '../../core/stage';
import { SettlementService } from '../settle/settlement.service';
import { shownErrorText } from '../../../../common/evm/provider-error';

/** How soon a send waiting for any provider of its chain is tried again. */
const NO_PROVIDER_RETRY_MS = 1_000;

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
    private readonly firstSend: FirstSend,
    private readonly replacement: Replacement,
    private readonly abandonment: Abandonment,
    private readonly settlement: SettlementService,
    private readonly queue: SendQueue,
    private readonly config: AppConfig,
    private readonly txs: RelayTransactionStore,
    private readonly metrics?: MetricsService,
  ) {
    super();
  }

  /** A first send counts from acceptance (the row's creation), any other job from its enqueue. */
  private observeDwell(job: Job<SendJob>): void {
    const { row, mode } = job.data;
    if (!this.metrics || mode !== 'send') return;
    const since = typeof row?.createdAt === 'string' ? Date.parse(row.createdAt) : job.timestamp + (job.opts?.delay ?? 0);
    this.metrics.observeStage(typeof row?.chainId === 'number' ? row.chainId : 'unknown', 'queue_dwell', since, job.data.txId);
  }

  onModuleInit(): void {
    this.worker.concurrency = this.config.RELAY_SEND_CONCURRENCY;
  }

  async process(job: Job<SendJob>): Promise<void> {
    const { txId, mode } = job.data;
    // The job continues the trace of the request that enqueued it (its traceparent); a no-op with tracing off.
    await runJobTraced(`relay.${mode}`, job.data, { 'relay.tx_id': txId, 'relay.mode': mode }, () => this.run(job));
  }

  private async run(job: Job<SendJob>): Promise<void> {
    const { txId, mode, row, fees } = job.data;
    rememberTxTrace(txId);
    this.observeDwell(job);
    await runWithTrace(txTraceId(txId), async () => {
      try {
        // A row that cannot be signed again (user-signed) is sent as it is.
        if (mode === 'replace' && (await this.replacement.replace(txId, fees ? jobFees(fees) : undefined))) return;
        await this.firstSend.send(txId, mode === 'send' && row ? fromJobRow(row) : undefined);
      } catch (err) {
        if (err instanceof BackPressureError) return this.later(txId, mode, err);
        // No provider of the chain answered: the chain is out of service, not the transaction at fault; it waits (nothing FAILED).
        if (err instanceof RpcUnavailableError) return this.later(txId, mode, new BackPressureError(err.message, NO_PROVIDER_RETRY_MS));
        if (err instanceof TransientSendError) return this.retryOrFail(txId, err.message);
        if (err instanceof PermanentSendError) return this.giveUp(txId, err.message);
        this.logger.error(`send ${txId} failed unexpectedly: ${(err as Error).stack ?? String(err)}`);
        return this.retryOrFail(txId, shownErrorText(err));
      }
    });
  }

  /** Back-pressure is not a failure: the row stays as it is and the job comes back, no retry counted. */
  private async later(txId: string, mode: SendJob['mode'], err: BackPressureError): Promise<void> {
    this.logger.debug(`${txId} waits ${err.delayMs} ms: ${err.message}`);
    await this.queue.enqueue(txId, mode, `w${Date.now()}`, err.delayMs);
  }

  /**
   * FAILED only when nothing of the transaction can still land; one waiting in the node's pool
   * (or whose state the chain cannot tell now) stays PENDING for the tracker and reconciler.
   */
  private async giveUp(txId: string, reason: string): Promise<void> {
    const safe = await this.abandonment.safeToFail(txId).catch((err: Error) => {
      this.logger.error(`could not check ${txId} on chain before failing it: ${err.message}`);
      return false;
    });
    if (safe) await this.settlement.failUnsent(txId, reason);
    else this.logger.warn(`${txId} kept PENDING: a broadcast of it may still be mined (${reason})`);
  }

  private async retryOrFail(txId: string, reason: string): Promise<void> {
    const counted = await this.txs.countRetry(txId);
    if (!counted) {
      const tx = await this.txs.findById(txId);
      if (tx && IN_FLIGHT.includes(tx.stage)) {
        this.logger.warn(`giving up on ${txId} after ${tx.retries} retries: ${reason}`);
        await this.giveUp(txId, `${reason} (after ${tx.retries} retries)`);
      }
      return;
    }
    const retry = counted.retries;
    const delay = Math.min(500 * 2 ** (retry - 1), 30_000);
    this.logger.warn(`retry ${retry}/${counted.max_retries} of ${txId} in ${delay} ms: ${reason}`);
    await this.queue.enqueue(txId, 'send', retry, delay);
  }
}
