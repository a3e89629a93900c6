import { Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { toQuantity } from 'ethers';
import { DataSource, EntityManager } from 'typeorm';
import { utcDayStart } from '../../accounts/domain/daily-window';
import { LedgerService } from '../../accounts/domain/ledger.service';
import { ChainRegistry } from '../../chains/domain/chain-registry.service';
import { MetricsService } from '../../metrics/metrics.service';
import { PricingService } from '../../pricing/pricing.service';
import { TxNotification } from '../../tx-events/tx-notification';
import { TxStatusPublisher } from '../../tx-events/tx-status.publisher';
import { weiToMicroUsd } from '../domain/fees';
import { decodeRevertData, revertDataOf } from '../domain/revert-decoder';
import { RelayTransactionEntity, TxStatus } from '../entities/relay-transaction.entity';
import { MinedReceipt, receiptJson } from './mined-receipt';

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

  /** A mined receipt: EXECUTED (status 1) or FAILED (reverted on chain; the gas is still charged). */
  async settleMined(txId: string, receipt: MinedReceipt): Promise<void> {
    const tx = await this.dataSource.getRepository(RelayTransactionEntity).findOneBy({ id: txId });
    if (!tx || tx.status !== 'PENDING') return;
    const chain = this.chains.get(tx.chainId);
    const price = await this.pricing.nativeUsd(tx.chainId);
    const valueWei = receipt.status === 1 ? BigInt(tx.value) : 0n;
    // A funding-signed sender pays its own gas from the top-up; the account pays for the top-up.
    const wei =
      tx.transactionType === 'funding-signed'
        ? BigInt(tx.fundingCostWei)
        : receipt.gasUsed * receipt.effectiveGasPrice + receipt.l1Fee + valueWei + BigInt(tx.fundingCostWei);
    const costMicro = weiToMicroUsd(wei, price.usd, chain.nativeCurrency.decimals);
    const revertReason = receipt.status === 1 ? null : await this.revertReason(tx, receipt);
    const status: TxStatus = receipt.status === 1 ? 'EXECUTED' : 'FAILED';
    await this.finish(
      txId,
      status,
      { executionTxHash: receipt.transactionHash, costMicro, isAccountCharged: true, receipt: receiptJson(receipt), revertReason, error: revertReason },
      async (em, locked) => {
        if (!(await this.ledger.settleCovered(em, locked.userId, `tx:${locked.id}`, costMicro))) await this.ledger.settle(locked.userId, `tx:${locked.id}`, costMicro, em);
        return costMicro;
      },
    );
  }

  /**
   * Never mined (refused by the node, retries exhausted): the transaction itself costs
   * nothing, but top-up transfers already made for it were spent and are charged.
   */
  async failUnsent(txId: string, error: string): Promise<void> {
    const tx = await this.dataSource.getRepository(RelayTransactionEntity).findOneBy({ id: txId });
    if (!tx || tx.status !== 'PENDING') return;
    const spentWei = BigInt(tx.fundingCostWei);
    const spentMicro = spentWei > 0n ? weiToMicroUsd(spentWei, (await this.pricing.nativeUsd(tx.chainId)).usd, this.chains.get(tx.chainId).nativeCurrency.decimals) : 0n;
    await this.finish(txId, 'FAILED', { costMicro: spentMicro, isAccountCharged: spentMicro > 0n, error: error.slice(0, 1000) }, async (em, locked) => {
      if (spentMicro > 0n) await this.ledger.settle(locked.userId, `tx:${locked.id}`, spentMicro, em);
      else await this.ledger.release(locked.userId, `tx:${locked.id}`, em);
      return spentMicro;
    });
  }

  /**
   * The row (under its own lock, which also serialises settlements of one transaction), the
   * event, then the account: ledger movement and one UPDATE for the daily amount and the
   * breaker streak, last, so the account row is locked from there to commit only.
   */
  private async finish(
    txId: string,
    status: TxStatus,
    patch: Partial<RelayTransactionEntity>,
    charge: (em: EntityManager, tx: RelayTransactionEntity) => Promise<bigint>,
  ): Promise<void> {
    let latencyMs = 0;
    const notification = await this.dataSource.transaction(async (em): Promise<TxNotification | null> => {
      const tx = await em.findOne(RelayTransactionEntity, { where: { id: txId }, lock: { mode: 'pessimistic_write' } });
      if (!tx || tx.status !== 'PENDING') return null;
      latencyMs = Date.now() - tx.createdAt.getTime();
      Object.assign(tx, patch, { status, latencyMs });
      await em.update(RelayTransactionEntity, { id: tx.id }, { ...patch, status, latencyMs });
      const notification = await this.publisher.record(em, tx, 'PENDING');
      const charged = await charge(em, tx);
      await this.updateAccountCounters(em, tx, charged, status === 'EXECUTED');
      return notification;
    });
    if (notification) {
      const labels = { chain: String(notification.chainId), status };
      this.metrics.relayTerminal.inc(labels);
      this.metrics.relayLatency.observe(labels, latencyMs / 1000);
      await this.publisher.publish('status', notification);
      this.logger.log(`tx ${txId} ${status}${notification.executionTxHash ? ` ${notification.executionTxHash}` : ''}`);
    }
  }

  /**
   * The daily amount was raised by the estimate at submission: correct it to what was charged
   * (a reservation made before midnight counted toward yesterday, so today's is untouched); and
   * the breaker's failure streak. One statement.
   */
  private async updateAccountCounters(em: EntityManager, tx: RelayTransactionEntity, chargedMicro: bigint, success: boolean): Promise<void> {
    const now = new Date();
    const dayStart = utcDayStart(now);
    const sameDay = tx.createdAt >= dayStart;
    const streak = success ? '0' : 'failure_streak + 1';
    if (!sameDay) {
      await em.query(`UPDATE accounts SET failure_streak = ${streak} WHERE id = $1`, [tx.userId]);
      return;
    }
    await em.query(
      `UPDATE accounts
          SET failure_streak = ${streak},
              daily_consumed_micro = GREATEST((CASE WHEN daily_updated_at < $2 THEN 0 ELSE daily_consumed_micro END) - $3 + $4, 0),
              daily_updated_at = $5
        WHERE id = $1`,
      [tx.userId, dayStart, tx.estimatedCostMicro.toString(), chargedMicro.toString(), now],
    );
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
