import { Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { toQuantity } from 'ethers';
import { DataSource, EntityManager } from 'typeorm';
import { utcDayStart } from '../../accounts/domain/daily-window';
import { AccountCounters } from '../../accounts/domain/account-counters';
import { LedgerService } from '../../accounts/domain/ledger.service';
import { ChainRegistry } from '../../chains/domain/chain-registry.service';
import { MetricsService } from '../../metrics/metrics.service';
import { PricingService } from '../../pricing/pricing.service';
import { notificationFor, TxNotification } from '../../tx-events/tx-notification';
import { TxStatusPublisher } from '../../tx-events/tx-status.publisher';
import { weiToMicroUsd } from '../core/fees';
import { decodeRevertData, revertDataOf } from '../core/revert-decoder';
import { RelayTransactionEntity, TxStatus } from '../store/relay-transaction.entity';
import { MinedReceipt, receiptJson } from '../core/mined-receipt';

/**
 * Moves a PENDING transaction to its terminal state in ONE database transaction: ledger
 * settlement (actual cost charged, rest released) or release, account counters, the row,
 * and the status event. Idempotent: a transaction that is no longer PENDING is left alone.
 */
@Injectable()
export class SettlementService {
  private readonly logger = new Logger(SettlementService.name);

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly ledger: LedgerService,
    private readonly pricing: PricingService,
    private readonly chains: ChainRegistry,
    private readonly publisher: TxStatusPublisher,
    private readonly metrics: MetricsService,
  ) {}

  /**
   * A mined receipt: EXECUTED (status 1) or FAILED (reverted on chain; the gas is still charged).
   * `known` may be the sender's in-memory row: what the cost is computed from (value, type,
   * top-up cost) does not change after the send, and the statement itself checks the status.
   */
  async settleMined(txId: string, receipt: MinedReceipt, known?: RelayTransactionEntity): Promise<void> {
    const tx = known ?? (await this.dataSource.getRepository(RelayTransactionEntity).findOneBy({ id: txId }));
    if (!tx || tx.status !== 'PENDING') return;
    const status: TxStatus = receipt.status === 1 ? 'EXECUTED' : 'FAILED';
    const revertReason = receipt.status === 1 ? null : await this.revertReason(tx, receipt);
    const costMicro = await this.minedCost(tx, receipt);
    const patch: Partial<RelayTransactionEntity> = {
      executionTxHash: receipt.transactionHash,
      costMicro,
      isAccountCharged: true,
      receipt: receiptJson(receipt),
      revertReason,
      error: revertReason,
    };
    // The usual case, the worst-case estimate covers the cost: the whole settlement is one statement.
    if (costMicro <= tx.estimatedCostMicro) {
      if (await this.settleInOneStatement(tx, status, patch, costMicro)) return;
      // Not settled: someone else finished it in between, or it needs the general path below.
    }
    await this.finish(txId, status, async () => ({
      patch,
      chargedMicro: costMicro,
      // Only a cost above the reservation gets here (or a row finished meanwhile, which `finish` skips).
      charge: async (em, locked, counters) => {
        await em.query(`UPDATE relay_broadcasts SET broadcast_at = now() WHERE hash = $1 AND broadcast_at IS NULL`, [receipt.transactionHash]);
        await this.ledger.settle(locked.userId, `tx:${locked.id}`, costMicro, em);
        await this.ledger.applyCounters(em, locked.userId, counters);
      },
    }));
  }

  /**
   * Row, status event, ledger row and account in ONE statement (data-modifying CTEs): the row
   * changes only if still PENDING, and everything else follows from that row, so a concurrent
   * or repeated settlement changes nothing. False when nothing was settled.
   */
  private async settleInOneStatement(tx: RelayTransactionEntity, status: TxStatus, patch: Partial<RelayTransactionEntity>, costMicro: bigint): Promise<boolean> {
    const latencyMs = Date.now() - tx.createdAt.getTime();
    const finished = Object.assign(Object.create(Object.getPrototypeOf(tx)) as RelayTransactionEntity, tx, patch, { status, latencyMs });
    const notification = notificationFor(finished, 'PENDING');
    const settled = await this.ledger.settleCoveredWith(
      this.dataSource,
      {
        ctes: `row AS (
                 UPDATE relay_transactions
                    SET status = $2, execution_tx_hash = $3, cost_micro = $4, is_account_charged = true, receipt = $5::jsonb,
                        revert_reason = $6, error = $6, latency_ms = $7, updated_at = now()
                  WHERE id = $1 AND status = 'PENDING' AND estimated_cost_micro >= $4
              RETURNING id, user_id, estimated_cost_micro
               ),
               event AS (${this.publisher.outboxInsert(`SELECT id, user_id, $2, 'PENDING', $8::jsonb FROM row`)}),
               -- The mined bytes were certainly accepted by a node; the sender leaves this to us when the receipt was there at once.
               accepted AS (UPDATE relay_broadcasts SET broadcast_at = now() WHERE hash = $3 AND broadcast_at IS NULL AND EXISTS (SELECT 1 FROM row)),
               source AS (SELECT user_id, 'tx:' || id AS reference, estimated_cost_micro AS reserved_micro FROM row)`,
        params: [tx.id, status, patch.executionTxHash, costMicro.toString(), JSON.stringify(patch.receipt), patch.revertReason ?? null, latencyMs, JSON.stringify(notification)],
      },
      costMicro,
      countersFor(tx, costMicro, status === 'EXECUTED'),
    );
    if (settled) await this.announce(notification, status, latencyMs, tx.label);
    return settled;
  }

  private async minedCost(tx: RelayTransactionEntity, receipt: MinedReceipt): Promise<bigint> {
    const valueWei = receipt.status === 1 ? BigInt(tx.value) : 0n;
    // A funding-signed sender pays its own gas from the top-up; the account pays for the top-up.
    const wei =
      tx.transactionType === 'funding-signed'
        ? BigInt(tx.fundingCostWei)
        : receipt.gasUsed * receipt.effectiveGasPrice + receipt.l1Fee + valueWei + BigInt(tx.fundingCostWei);
    return this.toMicro(tx.chainId, wei);
  }

  /**
   * Never mined (refused by the node, retries exhausted): the transaction itself costs
   * nothing, but top-up transfers already made for it were spent and are charged.
   */
  async failUnsent(txId: string, error: string): Promise<void> {
    await this.finish(txId, 'FAILED', async (tx) => {
      const spentWei = BigInt(tx.fundingCostWei);
      const spentMicro = spentWei > 0n ? await this.toMicro(tx.chainId, spentWei) : 0n;
      return {
        patch: { costMicro: spentMicro, isAccountCharged: spentMicro > 0n, error: error.slice(0, 1000) },
        chargedMicro: spentMicro,
        charge: async (em, locked, counters) => {
          if (spentMicro > 0n) await this.ledger.settle(locked.userId, `tx:${locked.id}`, spentMicro, em);
          else await this.ledger.release(locked.userId, `tx:${locked.id}`, em);
          await this.ledger.applyCounters(em, locked.userId, counters);
        },
      };
    });
  }

  /**
   * ONE database transaction: the row under its own lock (which also serialises settlements of
   * one transaction; a row no longer PENDING is left alone), its update and status event, then
   * the account: the ledger movement with the daily amount and breaker streak, last, so the
   * account row is locked from there to commit only.
   */
  private async finish(txId: string, status: TxStatus, outcome: (tx: RelayTransactionEntity) => Promise<Outcome>): Promise<void> {
    let latencyMs = 0;
    let label: string | undefined;
    const notification = await this.dataSource.transaction(async (em): Promise<TxNotification | null> => {
      const tx = await em.findOne(RelayTransactionEntity, { where: { id: txId }, lock: { mode: 'pessimistic_write' } });
      if (!tx || tx.status !== 'PENDING') return null;
      const { patch, chargedMicro, charge } = await outcome(tx);
      latencyMs = Date.now() - tx.createdAt.getTime();
      label = tx.label;
      Object.assign(tx, patch, { status, latencyMs });
      await em.update(RelayTransactionEntity, { id: tx.id }, { ...patch, status, latencyMs });
      const notification = await this.publisher.record(em, tx, 'PENDING');
      await charge(em, tx, countersFor(tx, chargedMicro, status === 'EXECUTED'));
      return notification;
    });
    if (notification) await this.announce(notification, status, latencyMs, label);
  }

  /** After commit: metrics, the Redis signal (sync waiters, sockets), the log line. */
  private async announce(notification: TxNotification, status: TxStatus, latencyMs: number, label: string | undefined): Promise<void> {
    const labels = { chain: String(notification.chainId), status };
    this.metrics.relayTerminal.inc(labels);
    this.metrics.relayLatency.observe(labels, latencyMs / 1000);
    await this.publisher.publish('status', notification, label);
    this.logger.log(`tx ${notification.txId} ${status}${notification.executionTxHash ? ` ${notification.executionTxHash}` : ''}`);
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

interface Outcome {
  patch: Partial<RelayTransactionEntity>;
  chargedMicro: bigint;
  charge: (em: EntityManager, tx: RelayTransactionEntity, counters: AccountCounters) => Promise<void>;
}

/** A submission made before today's midnight counted toward yesterday: today's amount is untouched. */
function countersFor(tx: RelayTransactionEntity, chargedMicro: bigint, success: boolean): AccountCounters {
  const now = new Date();
  const dayStart = utcDayStart(now);
  return { success, daily: tx.createdAt >= dayStart ? { dayStart, now, estimatedMicro: tx.estimatedCostMicro, chargedMicro } : null };
}
