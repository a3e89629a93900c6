import { Logger, LoggerService } from '@nestjs/common';
import { currentTraceId, runWithTrace } from '../../../../common/trace/trace-context';
import { build } from '../../../../../test/fakes/build';
import { LedgerService, LowBalanceMonitor } from '../../../accounts';
import { ChainRegistry } from '../../../chains';
import { PolicyStore } from '../../../policies';
import { PricingService } from '../../../pricing';
import { TxNotification, TxStatusPublisher } from '../../../tx-events';
import type { MinedReceipt } from '../../core/mined-receipt';
import { RelayBroadcastStore } from '../../store/relay-broadcast.store';
import { RelayTransactionEntity } from '../../store/relay-transaction.entity';
import { RelayTransactionStore } from '../../store/relay-transaction.store';
import { SettlementService } from './settlement.service';
import { KeySlots } from '../keys/key-slots.service';

/**
 * SettlementService's decisions without a database: which path a mined receipt takes (the one
 * covered statement or the general transaction), what it charges and announces. The statements
 * themselves run against PostgreSQL in relay-transaction.store.spec.ts and the ledger's spec.
 */
describe('SettlementService', () => {
  beforeAll(() => Logger.overrideLogger(false));
  // 21,000 gas at 1 gwei = 2.1e13 wei; at 2,000 USD per ETH that is 42,000 micro-USD.
  const COST = 42_000n;
  const stamps = { created_at: new Date(), signed_at: new Date(), broadcast_at: new Date(), mined_at: new Date(), settled_at: new Date() };

  function setup(row: Partial<RelayTransactionEntity>) {
    const tx = Object.assign(new RelayTransactionEntity(), {
      id: '0b7c2f4e-9d1a-4c3b-8e2f-1a2b3c4d5e6f',
      userId: 'a1b2c3d4-0000-4000-8000-000000000001',
      chainId: 31337,
      stage: 'broadcast',
      status: 'PENDING',
      transactionType: 'flash',
      to: '0x00000000000000000000000000000000000000aa',
      value: '0',
      fundingCostWei: '0',
      nonce: 5n,
      estimatedCostMicro: 100_000n,
      createdAt: new Date(Date.now() - 5_000),
      signedAt: new Date(),
      broadcastAt: new Date(),
      cancelReason: null,
      origin: null,
      ...row,
    });
    const { unit, get } = build(SettlementService, {
      provide: [
        // A chain with confirmations settles into the mined stages; finality moves them on at depth.
        [ChainRegistry, { get: () => ({ chainId: 31337, nativeCurrency: { decimals: 18 }, confirmations: 1 }) }],
        [PricingService, { nativeUsd: async () => ({ usd: 2_000, source: 'static', at: Date.now() }) }],
      ],
    });
    const txs = get(RelayTransactionStore);
    const em = { manager: 'the transaction' };
    txs.findById.mockResolvedValue(tx);
    txs.settleCovered.mockResolvedValue({ ...stamps, low_balance_due: false });
    txs.transaction.mockImplementation(async (fn) => fn(em as never));
    txs.lockForSettlement.mockResolvedValue(tx);
    txs.finish.mockResolvedValue(stamps);
    get(TxStatusPublisher).record.mockImplementation(async (_em, row, previous) => ({ txId: row.id, userId: row.userId, status: row.status, previousStatus: previous }) as TxNotification);
    return { unit, get, tx, txs, em };
  }

  const receipt = (overrides: Partial<MinedReceipt> = {}): MinedReceipt => ({
    transactionHash: `0x${'ab'.repeat(32)}`,
    blockNumber: 10,
    blockHash: `0x${'cd'.repeat(32)}`,
    status: 1,
    from: '0x00000000000000000000000000000000000000f0',
    to: '0x00000000000000000000000000000000000000aa',
    gasUsed: 21_000n,
    effectiveGasPrice: 1_000_000_000n,
    l1Fee: 0n,
    contractAddress: null,
    logs: 0,
    ...overrides,
  });

  it('covered: a cost within the reservation settles in the ONE statement and announces EXECUTED', async () => {
    const { unit, get, tx, txs } = setup({});
    await unit.settleMined(tx.id, receipt(), tx);
    expect(txs.settleCovered).toHaveBeenCalledTimes(1);
    const [row, m, fields, notification] = txs.settleCovered.mock.calls[0];
    expect(row).toBe(tx);
    expect(m).toMatchObject({ to: 'mined_executed', status: 'EXECUTED' });
    expect(fields).toMatchObject({ costMicro: COST, isAccountCharged: true, failureReason: null, nativePriceUsd: '2000.000000' });
    expect(notification).toMatchObject({ status: 'EXECUTED', previousStatus: 'PENDING', costUSD: 0.042 });
    expect(txs.transaction).not.toHaveBeenCalled();
    expect(get(LedgerService).settle).not.toHaveBeenCalled();
    expect(get(TxStatusPublisher).publish).toHaveBeenCalledWith('status', notification, null);
    // The statement said no low-balance transition is due: no further read.
    expect(get(LowBalanceMonitor).check).not.toHaveBeenCalled();
    // A receipt found on its own (after a broadcast, by the reconciler): its key slot goes now.
    expect(get(KeySlots).release).toHaveBeenCalledWith(tx.id);
  });

  it('a batch: the covered settlements in ONE statement and one publish, the rows not in hand read at once, an over-reservation on the general path', async () => {
    const { unit, get, tx, txs, em } = setup({});
    const second = Object.assign(new RelayTransactionEntity(), { ...tx, id: '0b7c2f4e-9d1a-4c3b-8e2f-000000000002', userId: 'a1b2c3d4-0000-4000-8000-000000000002' });
    const over = Object.assign(new RelayTransactionEntity(), { ...tx, id: '0b7c2f4e-9d1a-4c3b-8e2f-000000000003', estimatedCostMicro: 10_000n });
    txs.findByIds.mockResolvedValue([second]);
    txs.settleCoveredMany.mockImplementation(async (items) => new Map(items.map((i) => [i.tx.id, { ...stamps, low_balance_due: i.tx.id === second.id }])));
    txs.lockForSettlement.mockResolvedValue(over);
    await unit.settleMinedMany([
      { txId: tx.id, receipt: receipt(), known: tx },
      { txId: second.id, receipt: receipt({ status: 0 }) },
      { txId: over.id, receipt: receipt(), known: over },
    ]);
    expect(txs.findByIds).toHaveBeenCalledWith([second.id]);
    expect(txs.findById).not.toHaveBeenCalled();
    expect(txs.settleCoveredMany).toHaveBeenCalledTimes(1);
    const [items] = txs.settleCoveredMany.mock.calls[0];
    expect(items.map((i) => [i.tx.id, i.m.to, i.counters.success])).toEqual([
      [tx.id, 'mined_executed', true],
      [second.id, 'mined_reverted', false],
    ]);
    // One clock for the batch (one day window).
    expect(items[0].counters.daily?.now).toBe(items[1].counters.daily?.now);
    expect(txs.settleCovered).not.toHaveBeenCalled();
    const publisher = get(TxStatusPublisher);
    expect(publisher.publishMany).toHaveBeenCalledTimes(1);
    expect(publisher.publishMany.mock.calls[0][1].map((s) => [s.notification.txId, s.notification.status])).toEqual([
      [tx.id, 'EXECUTED'],
      [second.id, 'FAILED'],
    ]);
    // Only the account the statement said is due is checked.
    expect(get(LowBalanceMonitor).check).toHaveBeenCalledTimes(2);
    expect(get(LowBalanceMonitor).check).toHaveBeenCalledWith(second.userId);
    // The cost above its reservation: one transaction of its own, announced on its own.
    expect(txs.finish).toHaveBeenCalledTimes(1);
    expect(txs.finish).toHaveBeenCalledWith(over.id, expect.objectContaining({ to: 'mined_executed' }), expect.objectContaining({ costMicro: COST }), receipt().transactionHash, em);
    expect(publisher.publish).toHaveBeenCalledWith('status', expect.objectContaining({ txId: over.id, status: 'EXECUTED' }), null);
    // The tracker released the key slots when it saw the receipts: none is released twice.
    expect(get(KeySlots).release).not.toHaveBeenCalled();
  });

  it("each settled row's line carries that row's trace id, not the batch's", async () => {
    const { unit, tx, txs } = setup({});
    const second = Object.assign(new RelayTransactionEntity(), { ...tx, id: '0b7c2f4e-9d1a-4c3b-8e2f-000000000002' });
    const over = Object.assign(new RelayTransactionEntity(), { ...tx, id: '0b7c2f4e-9d1a-4c3b-8e2f-000000000003', estimatedCostMicro: 10_000n });
    txs.settleCoveredMany.mockImplementation(async (items) => new Map(items.map((i) => [i.tx.id, { ...stamps, low_balance_due: false }])));
    txs.lockForSettlement.mockResolvedValue(over);
    const lines: Array<[string | undefined, string]> = [];
    const record = (message: unknown) => void lines.push([currentTraceId(), String(message)]);
    Logger.overrideLogger({ log: record, warn: record, error: record } as LoggerService);
    try {
      await runWithTrace('settle-1', () =>
        unit.settleMinedMany([
          { txId: tx.id, receipt: receipt(), known: tx },
          { txId: second.id, receipt: receipt(), known: second },
          { txId: over.id, receipt: receipt(), known: over },
        ]),
      );
    } finally {
      Logger.overrideLogger(false);
    }
    // Two from the one statement, the third (above its reservation) from its own transaction.
    expect(lines).toEqual(expect.arrayContaining([tx, second, over].map((t) => [`tx-${t.id}`, expect.stringMatching(new RegExp(`^tx ${t.id} EXECUTED`))])));
    expect(lines.filter(([, m]) => m.startsWith('tx '))).toHaveLength(3);
  });

  it('a batch the statement fails for is settled one by one on the general path', async () => {
    const { unit, tx, txs } = setup({});
    txs.settleCoveredMany.mockRejectedValue(new Error('deadlock detected'));
    await unit.settleMinedMany([{ txId: tx.id, receipt: receipt(), known: tx }]);
    expect(txs.finish).toHaveBeenCalledWith(tx.id, expect.objectContaining({ to: 'mined_executed' }), expect.objectContaining({ costMicro: COST }), receipt().transactionHash, expect.anything());
  });

  it('over-reservation: a cost above the reservation takes the general path, charging the whole cost in one transaction', async () => {
    const { unit, get, tx, txs, em } = setup({ estimatedCostMicro: 10_000n });
    await unit.settleMined(tx.id, receipt(), tx);
    expect(txs.settleCovered).not.toHaveBeenCalled();
    expect(txs.finish).toHaveBeenCalledWith(tx.id, expect.objectContaining({ to: 'mined_executed' }), expect.objectContaining({ costMicro: COST }), receipt().transactionHash, em);
    expect(get(LedgerService).settle).toHaveBeenCalledWith(tx.userId, `tx:${tx.id}`, COST, em);
    expect(get(LedgerService).applyCounters).toHaveBeenCalledWith(em, tx.userId, expect.objectContaining({ success: true }));
    expect(get(PolicyStore).settle).toHaveBeenCalledWith(em, tx, COST);
    expect(get(TxStatusPublisher).record).toHaveBeenCalledWith(em, tx, 'PENDING');
    expect(get(TxStatusPublisher).publish).toHaveBeenCalledWith('status', expect.objectContaining({ status: 'EXECUTED' }), null);
    expect(get(LowBalanceMonitor).check).toHaveBeenCalledWith(tx.userId);
  });

  it('cancellation won: the relay’s 0-value self-transfer was mined, so FAILED (cancelled), charged its gas only', async () => {
    const { unit, get, tx, txs } = setup({ value: '1000000000000000000', cancelReason: 'cancelled' });
    get(RelayBroadcastStore).kindOf.mockResolvedValue('cancel');
    const self = '0x00000000000000000000000000000000000000f0';
    await unit.settleMined(tx.id, receipt({ from: self, to: self }), tx);
    const [, m, fields, notification] = txs.settleCovered.mock.calls[0];
    expect(m).toMatchObject({ to: 'mined_cancelled', status: 'FAILED' });
    // The call's 1 ETH value was never sent: only the cancellation's gas is charged.
    expect(fields).toMatchObject({ costMicro: COST, failureReason: 'cancelled', revertReason: null });
    expect(fields.error).toContain('cancellation at nonce 5 was mined');
    expect(notification).toMatchObject({ status: 'FAILED', failureReason: 'cancelled' });
  });

  it('the original mined instead of the cancellation: EXECUTED, with its value charged', async () => {
    const { unit, get, tx, txs } = setup({ value: '10000000000000', cancelReason: 'cancelled', estimatedCostMicro: 1_000_000n });
    get(RelayBroadcastStore).kindOf.mockResolvedValue('call');
    await unit.settleMined(tx.id, receipt(), tx);
    const [, m, fields] = txs.settleCovered.mock.calls[0];
    expect(m).toMatchObject({ to: 'mined_executed' });
    // 1e13 wei of value at 2,000 USD is 20,000 micro-USD on top of the gas.
    expect(fields).toMatchObject({ costMicro: COST + 20_000n, failureReason: null });
  });

  it('already final: a receipt for a settled row writes and announces nothing', async () => {
    const { unit, get, tx, txs } = setup({ status: 'EXECUTED', stage: 'executed' });
    await unit.settleMined(tx.id, receipt());
    expect(txs.settleCovered).not.toHaveBeenCalled();
    expect(txs.transaction).not.toHaveBeenCalled();
    expect(get(TxStatusPublisher).publish).not.toHaveBeenCalled();
  });

  it('finished in between: the general path finds the row final under its lock and leaves it alone', async () => {
    const { unit, get, tx, txs } = setup({ estimatedCostMicro: 10_000n });
    txs.lockForSettlement.mockResolvedValue(Object.assign(new RelayTransactionEntity(), { ...tx, stage: 'executed', status: 'EXECUTED' }));
    await unit.settleMined(tx.id, receipt(), tx);
    expect(txs.finish).not.toHaveBeenCalled();
    expect(get(LedgerService).settle).not.toHaveBeenCalled();
    expect(get(TxStatusPublisher).publish).not.toHaveBeenCalled();
  });

  it('failUnsent releases the whole reservation when no top-up was spent', async () => {
    const { unit, get, tx, em } = setup({ stage: 'accepted' });
    expect(await unit.failUnsent(tx.id, 'node refused')).toBe(true);
    expect(get(LedgerService).release).toHaveBeenCalledWith(tx.userId, `tx:${tx.id}`, em);
    expect(get(LedgerService).settle).not.toHaveBeenCalled();
    expect(get(PolicyStore).settle).toHaveBeenCalledWith(em, expect.objectContaining({ id: tx.id, status: 'FAILED', failureReason: 'not_sent' }), 0n);
  });

  it('a reorg correction moves the sponsoring policy\'s spend by what the ledger adjustment applied, in the same transaction', async () => {
    const recorded = receipt();
    const { unit, get, tx, txs, em } = setup({
      stage: 'mined_executed',
      status: 'EXECUTED',
      costMicro: COST,
      receipt: { ...recorded, gasUsed: recorded.gasUsed.toString(), effectiveGasPrice: recorded.effectiveGasPrice.toString(), l1Fee: '0' } as never,
      executionTxHash: recorded.transactionHash,
      policyId: 'c0ffee00-0000-4000-8000-000000000001',
      endUser: '0x00000000000000000000000000000000000000e1',
      policyReservedMicro: 100_000n,
      policyWindowStart: new Date('2026-11-29T00:00:00Z'),
    });
    // The canonical receipt, in another block, used 31,500 gas (half as much again): 21,000 micro-USD more,
    // of which the account's available balance covered 15,000.
    get(LedgerService).adjust.mockResolvedValue(15_000n);
    txs.correctSettled.mockResolvedValue(true);
    const canonical = receipt({ blockNumber: 11, blockHash: `0x${'ef'.repeat(32)}`, gasUsed: 31_500n });
    expect(await unit.correctAfterReorg(tx, canonical, { stage: 'mined_executed', failureReason: null, recordedWei: 21_000n * 10n ** 9n, canonicalWei: 31_500n * 10n ** 9n })).toBe(true);
    expect(get(LedgerService).adjust).toHaveBeenCalledWith(tx.userId, `tx:${tx.id}`, 21_000n, expect.any(String), em);
    expect(get(PolicyStore).adjustSpent).toHaveBeenCalledWith(em, expect.objectContaining({ id: tx.id, policyId: 'c0ffee00-0000-4000-8000-000000000001' }), 15_000n);
    expect(txs.correctSettled).toHaveBeenCalledWith(tx.id, 'mined_executed', 'mined_executed', expect.objectContaining({ costMicro: COST + 15_000n }), em);
  });
});
