import { InjectQueue } from '@nestjs/bullmq';
import { Injectable, Logger } from '@nestjs/common';
import { Queue } from 'bullmq';
import { traceCarrier, TraceCarrier } from '../../../../common/trace/tracing';
import { QUEUES } from '../../../../queue/queue-names';
import type { FeeSettings } from '../../core/fees';
import type { SendJobRow } from './send-job-row';

/** `traceparent`: the trace of the request (or job) that enqueued the send, when tracing is on. */
export interface SendJob extends TraceCarrier {
  txId: string;
  /** 'send' signs and broadcasts; 'replace' re-signs the same nonce with bumped fees. */
  mode: 'send' | 'replace';
  /** The row as submitted, on a first send only (saves the worker a read). */
  row?: SendJobRow;
  /** A client's speed-up: the fees of the replacement (wei, decimal strings), already checked against the limits. */
  fees?: { gasPrice?: string; maxFeePerGas?: string; maxPriorityFeePerGas?: string };
}

/**
 * Enqueues send work. The job id is derived from the transaction id, so enqueuing twice (API
 * and reconciler racing) runs once; a failed enqueue is not fatal because the reconciler
 * re-enqueues every PENDING transaction without a live job.
 */
@Injectable()
export class SendQueue {
  private readonly logger = new Logger(SendQueue.name);

  constructor(@InjectQueue(QUEUES.relaySend) private readonly queue: Queue<SendJob>) {}

  async enqueue(txId: string, mode: SendJob['mode'] = 'send', attempt: number | string = 0, delayMs = 0, row?: SendJobRow, fees?: SendJob['fees']): Promise<boolean> {
    try {
      await this.queue.add(mode, { txId, mode, ...(row ? { row } : {}), ...(fees ? { fees } : {}), ...traceCarrier() }, { jobId: jobIdFor(txId, mode, attempt), delay: delayMs, removeOnComplete: true, removeOnFail: 1000 });
      return true;
    } catch (err) {
      this.logger.warn(`could not enqueue ${mode} for ${txId}, the reconciler will: ${(err as Error).message}`);
      return false;
    }
  }

  /** Transaction ids that have a send or replace job waiting, delayed or running. */
  async liveTxIds(): Promise<Set<string>> {
    const jobs = await this.queue.getJobs(['waiting', 'active', 'delayed', 'prioritized']);
    return new Set(jobs.filter(Boolean).map((j) => j.data.txId));
  }
}

export function jobIdFor(txId: string, mode: SendJob['mode'], attempt: number | string): string {
  return attempt === 0 ? `${mode}-${txId}` : `${mode}-${txId}-${attempt}`;
}

export function feesForJob(fees: FeeSettings): NonNullable<SendJob['fees']> {
  return fees.type === 'legacy' ? { gasPrice: fees.gasPrice.toString() } : { maxFeePerGas: fees.maxFeePerGas.toString(), maxPriorityFeePerGas: fees.maxPriorityFeePerGas.toString() };
}

export function jobFees(fees: NonNullable<SendJob['fees']>): FeeSettings {
  return fees.gasPrice !== undefined
    ? { type: 'legacy', gasPrice: BigInt(fees.gasPrice) }
    : { type: 'eip1559', maxFeePerGas: BigInt(fees.maxFeePerGas ?? '0'), maxPriorityFeePerGas: BigInt(fees.maxPriorityFeePerGas ?? '0') };
}
