import { Injectable, Logger } from '@nestjs/common';
import { toQuantity } from 'ethers';
import { EntityManager } from 'typeorm';
import { forgetTxTrace, runInTxTrace } from '../../../../common/trace/tracing';
import { AccountCounters, LedgerService, LowBalanceMonitor } from '../../../accounts';
import { ChainRegistry } from '../../../chains';
import { MetricsService } from '../../../metrics';
import { PolicyStore } from '../../../policies';
import { PricingService, recordedPrice } from '../../../pricing';
import { notificationFor, stagesOf, TxNotification, TxStatusPublisher } from '../../../tx-events';
import { confirmationsOf } from '../../core/confirmations';
import { weiToMicroUsd } from '../../core/fees';
import { MinedReceipt, receiptJson } from '../../core/mined-receipt';
import { ReorgCorrection } from '../../core/reorg-correction';
import { copyOf } from '../../core/row-copy';
import { decodeRevertData, revertDataOf } from '../../core/revert-decoder';
import { countersFor, minedCostWei } from '../../core/settlement-math';
import { IN_FLIGHT, MINED, minedOutcome, Move, move, SENT, settledStage, Stage, statusOf } from '../../core/stage';
import { RelayBroadcastStore } from '../../store/relay-broadcast.store';
import { FailureReason, RelayTransactionEntity } from '../../store/relay-transaction.entity';
import { applyStamps, CoveredSettlement, RelayTransactionStore, SettledFields, StageStamps } from '../../store/relay-transaction.store';
import { KeySlots } from '../keys/key-slots.service';

/**
 * Moves an in-flight transaction to its final stage (executed, reverted, failed) with, in ONE
 * database transaction or statement: the ledger settlement (actual cost charged, rest released)
 * or release, account counters, the row, and the status event. Idempotent: the stage move's
 * WHERE leaves a transaction that is already final alone.
 */
@Injectable()
export class SettlementService {
  private readonly logger = new Logger(SettlementService.name);

  constructor(
    private readonly txs: RelayTransactionStore,
    private readonly broadcasts: RelayBroadcastStore,
    private readonly ledger: LedgerService,
    private readonly pricing: PricingService,
    private readonly chains: ChainRegistry,
    private readonly publisher: TxStatusPublisher,
    private readonly metrics: MetricsService,
    private readonly lowBalance: LowBalanceMonitor,
    private readonly slots: KeySlots,
    private readonly policies: PolicyStore,
  ) {}

  /**
   * A mined receipt: EXECUTED (status 1) or FAILED (reverted on chain; the gas is still charged).
   * `known` may be the sender's in-memory row: what the cost is computed from (value, type,
   * top-up cost) does not change after the send, and the statement itself checks the status.
   */
  async settleMined(txId: string, receipt: MinedReceipt, known?: RelayTransactionEntity): Promise<void> {
    const seenAt = Date.now();
    this.receiptSeen(txId);
    const tx = known ?? (await this.txs.findById(txId));
    if (!tx || !IN_FLIGHT.includes(tx.stage)) return;
    const p = await this.prepareMined(tx, receipt, new Date());
    // The usual case, the worst-case estimate covers the cost: the whole settlement is one statement.
    if (p.covered) {
      const stamps = await this.txs.settleCovered(p.tx, p.m, p.fields, p.notification, p.counters);
      if (stamps) {
        // The event carries the times the statement wrote, as the outbox row does.
        p.notification.stages = stagesOf(applyStamps(p.finished, stamps));
        this.metrics.observeStage(p.tx.chainId, 'settlement', seenAt, p.tx.id);
        // The statement said whether the account crossed its low-balance threshold: no statement more per settlement.
        await this.announce(p.notification, p.fields.latencyMs ?? 0, p.tx, stamps.low_balance_due === true);
        return;
      }
      // Not settled: someone else finished it in between, or it needs the general path below.
    }
    await this.settleGeneral(p, receipt);
    this.metrics.observeStage(p.tx.chainId, 'settlement', seenAt, p.tx.id);
  }

  /**
   * `settleMined` for the receipts found together (a block's, or those found while the previous
   * batch settled), in their order: the rows not in hand read in one query, every covered
   * settlement in ONE statement (`settleCoveredMany`), the status signals in one publish, one
   * low-balance check per account that needs one. A row the statement leaves out (finished
   * meanwhile, a raise since) and a cost above its reservation go the general path, one database
   * transaction each, as in `settleMined`. A batch the statement fails for is settled one by one.
   * Resolves when every settlement of the batch is done; a settlement that failed is logged and
   * left to the reconciler, as any receipt this process did not settle. The caller has released
   * the rows' key slots (`receiptSeen`) when it saw the receipts, as the tracker does; releasing
   * them again here cost a Redis round trip per transaction for nothing.
   */
  async settleMinedMany(batch: ReadonlyArray<{ txId: string; receipt: MinedReceipt; known?: RelayTransactionEntity }>): Promise<void> {
    const seenAt = Date.now();
    const unique = [...new Map(batch.map((b) => [b.txId, b])).values()];
    const missing = unique.filter((b) => b.known?.id !== b.txId).map((b) => b.txId);
    const read = new Map((missing.length > 0 ? await this.txs.findByIds(missing) : []).map((r) => [r.id, r]));
    // One clock for the batch: its settlements share one day window.
    const now = new Date();
    const prepared = await Promise.all(
      unique.map(async ({ txId, receipt, known }) => {
        const tx = known?.id === txId ? known : read.get(txId);
        if (!tx || !IN_FLIGHT.includes(tx.stage)) return null;
        try {
          return { prepared: await this.prepareMined(tx, receipt, now), receipt };
        } catch (err) {
          runInTxTrace(txId, () => this.logger.error(`settling ${txId} failed: ${(err as Error).message}`));
          return null;
        }
      }),
    );
    const ready = prepared.filter((p): p is { prepared: PreparedMined; receipt: MinedReceipt } => p !== null);
    const covered = ready.filter((r) => r.prepared.covered);
    let settled: Map<string, StageStamps & { low_balance_due: boolean }>;
    try {
      settled = await this.txs.settleCoveredMany(covered.map((r) => r.prepared));
    } catch (err) {
      this.logger.warn(`settling ${covered.length} receipts in one statement failed (${(err as Error).message}): settling them one by one`);
      settled = new Map();
    }
    const announced: Array<{ notification: TxNotification; origin: string | null }> = [];
    const lowBalance = new Set<string>();
    for (const { prepared: p } of covered) {
      const stamps = settled.get(p.tx.id);
      if (!stamps) continue;
      p.notification.stages = stagesOf(applyStamps(p.finished, stamps));
      this.metrics.observeStage(p.tx.chainId, 'settlement', seenAt, p.tx.id);
      this.metrics.countTerminal(p.notification.chainId, p.notification.status, p.fields.latencyMs ?? 0);
      announced.push({ notification: p.notification, origin: p.tx.origin ?? null });
      if (stamps.low_balance_due) lowBalance.add(p.tx.userId);
    }
    await this.publisher.publishMany('status', announced);
    for (const userId of lowBalance) await this.lowBalance.check(userId);
    for (const { notification: n } of announced) this.logFinal(n);
    // Over the reservation, left out by the statement, or the statement failed: one transaction each, in its own trace.
    for (const { prepared: p, receipt } of ready) {
      if (settled.has(p.tx.id)) continue;
      await runInTxTrace(p.tx.id, async () => {
        try {
          await this.settleGeneral(p, receipt);
          this.metrics.observeStage(p.tx.chainId, 'settlement', seenAt, p.tx.id);
        } catch (err) {
          this.logger.error(`settling ${p.tx.id} failed: ${(err as Error).message}`);
        }
      });
    }
  }

  /** What a mined receipt settles a row to: the stage move, the fields, the event and the account's counters. */
  private async prepareMined(known: RelayTransactionEntity, receipt: MinedReceipt, now: Date): Promise<PreparedMined> {
    let tx = known;
    const sentAt = tx.broadcastAt ?? tx.signedAt;
    if (sentAt) this.metrics.observeStage(tx.chainId, 'inclusion', sentAt.getTime(), tx.id);
    const cancellation = await this.isCancellation(tx, receipt);
    // The cancel reason is written after the sender's copy was taken: read it from the row.
    if (cancellation && !tx.cancelReason) tx = (await this.txs.findById(tx.id)) ?? tx;
    // A chain taken as seen (0 confirmations) has nothing to follow: final now; else mined, followed to depth (SettledFinality).
    const final = confirmationsOf(this.chains.get(tx.chainId)) === 0;
    const m = move(settledStage(minedOutcome(receipt.status, cancellation), final), SENT);
    const revertReason = cancellation || receipt.status === 1 ? null : await this.revertReason(tx, receipt);
    // A mined cancellation sent nothing of the call: its gas is what the account pays.
    const { micro: costMicro, nativePriceUsd } = await this.minedCost(cancellation ? { ...tx, value: '0' } : tx, receipt);
    const fields: SettledFields = {
      executionTxHash: receipt.transactionHash,
      costMicro,
      nativePriceUsd,
      isAccountCharged: true,
      receipt: receiptJson(receipt),
      revertReason,
      error: cancellation ? `${tx.cancelReason ?? 'cancelled'}: the cancellation at nonce ${tx.nonce} was mined` : revertReason,
      latencyMs: now.getTime() - tx.createdAt.getTime(),
      failureReason: cancellation ? (tx.cancelReason ?? 'cancelled') : receipt.status === 1 ? null : 'reverted',
      ...(final ? { finalizedAt: now } : {}),
    };
    const success = cancellation ? null : m.status === 'EXECUTED';
    const finished = copyOf(tx, { ...fields, status: m.status, stage: m.to });
    return {
      tx,
      m,
      fields,
      success,
      finished,
      notification: notificationFor(finished, 'PENDING'),
      counters: countersFor(tx, costMicro, success, now),
      covered: costMicro <= tx.estimatedCostMicro,
    };
  }

  /** The general path of a mined receipt: the row under its lock, the ledger's settle entry for the whole cost. */
  private async settleGeneral(p: PreparedMined, receipt: MinedReceipt): Promise<void> {
    const { fields, success } = p;
    const costMicro = fields.costMicro ?? 0n;
    await this.finish(p.tx.id, p.m, receipt.transactionHash, async () => ({
      fields,
      chargedMicro: costMicro,
      success,
      // Only a cost above the reservation gets here (or a row finished meanwhile, which `finish` skips).
      charge: async (em, locked, counters) => {
        await this.ledger.settle(locked.userId, `tx:${locked.id}`, costMicro, em);
        await this.ledger.applyCounters(em, locked.userId, counters);
      },
    }));
  }

  /**
   * A receipt of the row is on chain: the move out of the sent stages is this class's to make,
   * and the row's in-flight key slot goes with it, now (its nonce no longer occupies the sender's
   * pending pool, whatever settlement finds), before the settlement, which may queue.
   */
  receiptSeen(txId: string): void {
    this.slots.release(txId);
  }

  /**
   * A settled row whose transaction a reorg moved (another block, price or outcome): in ONE
   * database transaction, the row under its lock (left alone when it no longer holds the receipt
   * `row` was read with: another pass corrected it first), its canonical receipt, hash, cost and
   * stage, an `adjust` ledger entry for the difference in cost (and the same difference on the
   * sponsoring policy's spend), and a status event when the outcome changed. The difference is
   * priced at today's native price on both sides, so it is the gas difference alone. False when
   * nothing was written.
   */
  async correctAfterReorg(row: RelayTransactionEntity, receipt: MinedReceipt, c: ReorgCorrection): Promise<boolean> {
    const deltaMicro = (await this.toMicro(row.chainId, c.canonicalWei)) - (await this.toMicro(row.chainId, c.recordedWei));
    let notification: TxNotification | null = null;
    let written: RelayTransactionEntity | null = null;
    await this.txs.transaction(async (em) => {
      const locked = await this.txs.lockForSettlement(row.id, em);
      // Final at depth (a final stage never changes), or corrected by another pass first.
      if (!locked || !MINED.includes(locked.stage) || locked.receipt?.blockHash !== row.receipt?.blockHash || locked.executionTxHash !== row.executionTxHash) return;
      const memo = `reorg: ${receipt.transactionHash} now in block ${receipt.blockNumber} (${receipt.blockHash}), was ${row.receipt?.blockHash ?? 'unknown'}`;
      const applied = await this.ledger.adjust(locked.userId, `tx:${locked.id}`, deltaMicro, memo, em);
      // A sponsoring policy counted the old cost: its budget and the end user's window follow the charge.
      await this.policies.adjustSpent(em, locked, applied);
      const previous = locked.status;
      const fields = { executionTxHash: receipt.transactionHash, receipt: receiptJson(receipt), costMicro: (locked.costMicro ?? 0n) + applied, failureReason: c.failureReason };
      // The row is locked in a mined stage: a statement that moves nothing is a bug, and rolls the adjustment back.
      if (!(await this.txs.correctSettled(locked.id, locked.stage, c.stage, fields, em))) throw new Error(`reorg correction of ${locked.id} (${locked.stage} → ${c.stage}) wrote nothing`);
      written = Object.assign(locked, fields, { stage: c.stage, status: statusOf(c.stage) });
      if (written.status !== previous) notification = await this.publisher.record(em, written, previous);
    });
    if (!written) return false;
    const w = written as RelayTransactionEntity;
    runInTxTrace(w.id, () => this.logger.warn(`tx ${w.id} corrected after a reorg: ${w.status} ${receipt.transactionHash} in block ${receipt.blockNumber}, charge ${deltaMicro >= 0n ? '+' : ''}${deltaMicro} micro-USD`));
    if (notification) await this.publisher.publish('status', notification, w.origin);
    // The adjustment moved the balance: it may have crossed the account's low-balance threshold.
    await this.lowBalance.check(w.userId);
    return true;
  }

  /** A 0-value self-transfer at the row's nonce that the relay signed to cancel it (checked against the broadcast's kind). */
  private async isCancellation(tx: RelayTransactionEntity, receipt: MinedReceipt): Promise<boolean> {
    if (tx.transactionType === 'funding-signed' || !receipt.to || receipt.to !== receipt.from) return false;
    return (await this.broadcasts.kindOf(receipt.transactionHash)) === 'cancel';
  }

  /** The mined cost in micro-USD and the native price it was converted at (the record's `nativePriceUsd`). */
  private async minedCost(tx: Pick<RelayTransactionEntity, 'chainId' | 'transactionType' | 'value' | 'fundingCostWei'>, receipt: MinedReceipt): Promise<{ micro: bigint; nativePriceUsd: string }> {
    const price = await this.pricing.nativeUsd(tx.chainId);
    return { micro: weiToMicroUsd(minedCostWei(tx, receipt), price.usd, this.chains.get(tx.chainId).nativeCurrency.decimals), nativePriceUsd: recordedPrice(price) };
  }

  /**
   * Never mined (refused by the node, retries exhausted): the transaction itself costs
   * nothing, but top-up transfers already made for it were spent and are charged.
   */
  async failUnsent(txId: string, error: string, reason: FailureReason = 'not_sent', from: readonly Stage[] = IN_FLIGHT): Promise<boolean> {
    const failed = await this.finish(txId, move('failed', from), null, async (tx) => {
      const spentWei = BigInt(tx.fundingCostWei);
      const price = spentWei > 0n ? await this.pricing.nativeUsd(tx.chainId) : null;
      const spentMicro = price ? weiToMicroUsd(spentWei, price.usd, this.chains.get(tx.chainId).nativeCurrency.decimals) : 0n;
      return {
        fields: { costMicro: spentMicro, nativePriceUsd: price ? recordedPrice(price) : null, isAccountCharged: spentMicro > 0n, error: error.slice(0, 1000), failureReason: reason },
        chargedMicro: spentMicro,
        success: reason === 'cancelled' || reason === 'expired' ? null : false,
        charge: async (em, locked, counters) => {
          if (spentMicro > 0n) await this.ledger.settle(locked.userId, `tx:${locked.id}`, spentMicro, em);
          else await this.ledger.release(locked.userId, `tx:${locked.id}`, em);
          await this.ledger.applyCounters(em, locked.userId, counters);
        },
      };
    });
    // Failed here: whatever it held of a key's in-flight slots is free (a row in another stage keeps its slot).
    if (failed) this.slots.release(txId);
    return failed;
  }

  /**
   * ONE database transaction: the row under its own lock (which also serialises settlements of
   * one transaction; a row in a stage the move does not start from is left alone), its update
   * and status event, then
   * the account: the ledger movement with the daily amount and breaker streak, last, so the
   * account row is locked from there to commit only.
   */
  private async finish(txId: string, m: Move, minedHash: string | null, outcome: (tx: RelayTransactionEntity) => Promise<Outcome>): Promise<boolean> {
    let row: RelayTransactionEntity | undefined;
    const notification = await this.txs.transaction(async (em): Promise<TxNotification | null> => {
      const tx = await this.txs.lockForSettlement(txId, em);
      if (!tx || !m.from.includes(tx.stage)) return null;
      const { fields, chargedMicro, charge, success } = await outcome(tx);
      const latencyMs = Date.now() - tx.createdAt.getTime();
      Object.assign(tx, fields, { status: m.status, stage: m.to, latencyMs });
      const stamps = await this.txs.finish(txId, m, { ...fields, latencyMs }, minedHash, em);
      if (stamps) applyStamps(tx, stamps);
      const notification = await this.publisher.record(em, tx, 'PENDING');
      await charge(em, tx, countersFor(tx, chargedMicro, success));
      // Its sponsoring policy counts what was charged instead of what was reserved.
      await this.policies.settle(em, tx, chargedMicro);
      row = tx;
      return notification;
    });
    if (notification && row) await this.announce(notification, row.latencyMs ?? 0, row);
    return notification !== null;
  }

  /**
   * After commit: metrics, the Redis signal (sync waiters, sockets), the account's low-balance
   * check (`lowBalanceDue`: only when the settlement left a transition to make), the log line.
   */
  private async announce(notification: TxNotification, latencyMs: number, tx: Pick<RelayTransactionEntity, 'origin'>, lowBalanceDue = true): Promise<void> {
    this.metrics.countTerminal(notification.chainId, notification.status, latencyMs);
    await this.publisher.publish('status', notification, tx.origin);
    if (lowBalanceDue) await this.lowBalance.check(notification.userId);
    this.logFinal(notification);
  }

  /** The line a final status leaves, in the transaction's own trace whoever settled it (a tracker pass, the reconciler); the trace ends with it. */
  private logFinal(n: TxNotification): void {
    runInTxTrace(n.txId, () => this.logger.log(`tx ${n.txId} ${n.status}${n.executionTxHash ? ` ${n.executionTxHash}` : ''}`));
    forgetTxTrace(n.txId);
  }

  private async toMicro(chainId: number, wei: bigint): Promise<bigint> {
    const price = await this.pricing.nativeUsd(chainId);
    return weiToMicroUsd(wei, price.usd, this.chains.get(chainId).nativeCurrency.decimals);
  }

  /** Best effort: replays the call on the parent block to read why it reverted. */
  private async revertReason(tx: RelayTransactionEntity, receipt: MinedReceipt): Promise<string> {
    try {
      await this.chains.provider(tx.chainId).send('eth_call', [
        { from: receipt.from, to: tx.to, data: tx.callData, value: toQuantity(BigInt(tx.value)), gas: toQuantity(BigInt(tx.gasLimit ?? '30000000')) },
        toQuantity(Math.max(receipt.blockNumber - 1, 0)),
      ]);
      return 'execution reverted on chain (the call succeeds when replayed on the parent block)';
    } catch (err) {
      return decodeRevertData(revertDataOf(err));
    }
  }
}

/** A mined receipt's settlement, worked out before any statement (`prepareMined`). */
interface PreparedMined extends CoveredSettlement {
  tx: RelayTransactionEntity;
  success: boolean | null;
  /** The row as settled (the statement's stage times are applied to it for the event). */
  finished: RelayTransactionEntity;
  /** The reservation covers the cost: the one-statement path. */
  covered: boolean;
}

interface Outcome {
  fields: Partial<SettledFields>;
  chargedMicro: bigint;
  /** The breaker's view: true executed, false failed, null ended by the client or its deadline. */
  success: boolean | null;
  charge: (em: EntityManager, tx: RelayTransactionEntity, counters: AccountCounters) => Promise<void>;
}
