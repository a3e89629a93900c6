import { Injectable, Logger } from '@nestjs/common';
import { AppError } from '../../../common/errors/app-error';
import type { Caller } from '../../../common/http/authenticated-request';
import { FeeSettings, maxGasPrice } from '../core/fees';
import { recordedFees } from '../core/signed-request';
import { TxQueryService } from '../http/tx-query.service';
import { ApprovalGate } from '../intake/approval-gate';
import { FeeRaise } from '../pipeline/send/fee-raise.service';
import { SettlementService } from '../pipeline/settle/settlement.service';
import { feesForJob, SendQueue } from '../pipeline/send/send-queue';
import { RelayBroadcastStore } from '../store/relay-broadcast.store';
import { RelayTransactionEntity } from '../store/relay-transaction.entity';
import { RelayTransactionStore } from '../store/relay-transaction.store';
import { speedUpFees } from './replacement-fees';

/** How long cancel and speed-up wait for the worker to broadcast the replacement before answering. */
const REPLACEMENT_WAIT_MS = 5_000;
const POLL_MS = 50;

/**
 * A client's actions on its own PENDING transaction: cancel (unsent: FAILED at once; sent: a
 * cancellation at its nonce) and speed-up (a fee-bumped replacement). Every change is a
 * conditional statement on the row's stage, so they are safe against the sender and settlement
 * running at the same moment; the replacement itself is signed by the worker (send queue).
 */
@Injectable()
export class TxActionsService {
  private readonly logger = new Logger(TxActionsService.name);

  constructor(
    private readonly query: TxQueryService,
    private readonly txs: RelayTransactionStore,
    private readonly broadcasts: RelayBroadcastStore,
    private readonly settlement: SettlementService,
    private readonly queue: SendQueue,
    private readonly feeRaise: FeeRaise,
    private readonly approval: ApprovalGate,
  ) {}

  async cancel(caller: Caller, id: string): Promise<RelayTransactionEntity> {
    const tx = await this.owned(caller, id);
    this.assertReplaceable(tx);
    // Not signed yet: FAILED now, released; the sender's claim is gated on the row still being accepted.
    if (tx.stage === 'accepted' && (await this.settlement.failUnsent(id, 'cancelled by the client before it was sent', 'cancelled', ['accepted']))) {
      return this.query.get(id);
    }
    const before = (await this.broadcasts.forTx(id)).length;
    if (!(await this.txs.requestCancel(id, 'cancelled'))) {
      // It moved on between the read and the statement: answer from where it is now.
      const now = await this.query.get(id);
      if (now.status !== 'PENDING') throw this.notActionable(now);
      // Its nonce went back to another transaction (signed → accepted): the sender sees the reason and fails it.
      return now;
    }
    await this.queue.enqueue(id, 'replace', `c${Date.now().toString(36)}`);
    this.logger.log(`cancel of ${id} requested`);
    return this.afterReplacement(id, before);
  }

  async speedUp(caller: Caller, id: string, request: { bumpPercent?: number; maxFeePerGas?: string; maxPriorityFeePerGas?: string }, defaultPercent: number): Promise<RelayTransactionEntity> {
    const tx = await this.owned(caller, id);
    this.assertReplaceable(tx);
    if (tx.cancelReason) throw new AppError('TRANSACTION_009', `transaction ${id} is being cancelled (${tx.cancelReason})`);
    const previous = await this.broadcasts.forTx(id);
    const last = previous.filter((b) => b.kind === 'call').at(-1);
    if (tx.stage === 'accepted' || !last) throw new AppError('TRANSACTION_009', `transaction ${id} is not sent yet: it is signed with the market fees when it is, retry once it is broadcast`);
    const oldFees = recordedFees(last);
    const fees = speedUpFees(oldFees, request, defaultPercent);
    await this.reserveFor(caller, tx, oldFees, fees);
    await this.queue.enqueue(id, 'replace', `s${Date.now().toString(36)}`, 0, undefined, feesForJob(fees));
    this.logger.log(`speed-up of ${id} to max fee ${maxGasPrice(fees)} requested`);
    return this.afterReplacement(id, previous.length);
  }

  /**
   * A fee raise is a new sponsorship decision: the account's approval webhook is asked (when
   * enabled), then the reservation is raised to the worst case at the new fees within every
   * limit and the transaction's maxUSD, in one statement; a refusal leaves the transaction
   * as it is, at its old fees.
   */
  private async reserveFor(caller: Caller, tx: RelayTransactionEntity, oldFees: FeeSettings, fees: FeeSettings): Promise<void> {
    const estimatedCostMicro = await this.feeRaise.needed(tx, fees, 'call');
    await this.approval.checkFeeRaise(caller.account, { txId: tx.id, chainId: tx.chainId, oldFees, newFees: fees, estimatedCostMicro });
    const raised = await this.feeRaise.reserve(tx, fees, 'call');
    if (!raised.ok) throw raised.error;
  }

  /** The record once a node accepted the worker's replacement, or as it is after REPLACEMENT_WAIT_MS (still queued or settled meanwhile). */
  private async afterReplacement(id: string, broadcastsBefore: number): Promise<RelayTransactionEntity> {
    const deadline = Date.now() + REPLACEMENT_WAIT_MS;
    for (;;) {
      const tx = await this.query.get(id);
      if (tx.status !== 'PENDING' || Date.now() >= deadline) return tx;
      // Written before it is sent; marked once a node accepted it.
      if ((await this.broadcasts.forTx(id)).slice(broadcastsBefore).some((b) => b.broadcastAt !== null)) return this.query.get(id);
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    }
  }

  private async owned(caller: Caller, id: string): Promise<RelayTransactionEntity> {
    const tx = await this.query.find(id);
    // Another account's transaction is answered exactly like an unknown one.
    if (!tx || tx.userId !== caller.account.id) throw new AppError('TRANSACTION_003', `transaction ${id} not found`);
    return tx;
  }

  private assertReplaceable(tx: RelayTransactionEntity): void {
    if (tx.status !== 'PENDING') throw this.notActionable(tx);
    if (tx.transactionType === 'funding-signed') {
      throw new AppError('TRANSACTION_009', 'a funding-signed transaction is signed by its user: the relay cannot replace it at the user\'s nonce');
    }
  }

  private notActionable(tx: RelayTransactionEntity): AppError {
    return new AppError('TRANSACTION_009', `transaction ${tx.id} is ${tx.status}`);
  }
}
