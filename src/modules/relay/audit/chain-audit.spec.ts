import type { MinedReceipt } from '../core/mined-receipt';
import { AuditRow, auditRow } from './chain-audit';

const H1 = '0x' + '1'.repeat(64);
const H2 = '0x' + '2'.repeat(64);
const receipt = (hash: string, status: 0 | 1 = 1): MinedReceipt => ({
  transactionHash: hash, blockNumber: 1, blockHash: '0x', status, from: '0x', to: null, gasUsed: 21000n, effectiveGasPrice: 10n, l1Fee: 5n, contractAddress: null, logs: 0,
});
const row = (over: Partial<AuditRow> = {}): AuditRow => ({
  id: 't1', chainId: 1, stage: 'executed', executionTxHash: H1, costMicro: 100n, transactionType: 'flash', value: '0', fundingCostWei: '0',
  receipt: { transactionHash: H1, blockNumber: 1, blockHash: '0x', status: 1, from: '0x', to: null, gasUsed: '21000', effectiveGasPrice: '10', l1Fee: '5', contractAddress: null, logs: 0 },
  ...over,
});
const ledger = { availableMicro: -100n, pendingMicro: 0n };
const kinds = (r: ReturnType<typeof auditRow>) => r.map((m) => m.kind);

describe('auditRow', () => {
  it('a consistent executed row has no mismatch', () => {
    expect(auditRow(row(), [H1], new Map([[H1, receipt(H1)]]), ledger)).toEqual([]);
  });
  it('finds an unmined hash, a wrong status, a second mined hash', () => {
    expect(kinds(auditRow(row(), [H1], new Map(), ledger))).toEqual(['hash_not_mined']);
    expect(auditRow(row(), [H1, H2], new Map([[H2, receipt(H2)]]), ledger)).toEqual([{ txId: 't1', chainId: 1, kind: 'hash_not_mined', expected: `${H1} mined`, actual: `mined: ${H2}` }]);
    expect(kinds(auditRow(row(), [H1], new Map([[H1, receipt(H1, 0)]]), ledger))).toEqual(['status_mismatch']);
    expect(kinds(auditRow(row(), [H1, H2], new Map([[H1, receipt(H1)], [H2, receipt(H2)]]), ledger))).toEqual(['second_mined']);
  });
  it('compares the recorded cost in wei with the chain, and the charge with the ledger', () => {
    const r = row({ receipt: { ...row().receipt!, gasUsed: '30000' } });
    expect(auditRow(r, [H1], new Map([[H1, receipt(H1)]]), ledger)).toEqual([{ txId: 't1', chainId: 1, kind: 'cost_wei_mismatch', expected: '210005', actual: '300005' }]);
    expect(auditRow(row({ costMicro: 90n }), [H1], new Map([[H1, receipt(H1)]]), ledger)).toEqual([{ txId: 't1', chainId: 1, kind: 'charge_mismatch', expected: '90', actual: '100' }]);
    expect(kinds(auditRow(row(), [H1], new Map([[H1, receipt(H1)]]), { availableMicro: -100n, pendingMicro: 7n }))).toEqual(['reservation_open']);
  });
  it('a failed row must have nothing mined; value counts only when executed', () => {
    expect(kinds(auditRow(row({ stage: 'failed', costMicro: 0n, receipt: null }), [H1], new Map([[H1, receipt(H1)]]), { availableMicro: 0n, pendingMicro: 0n }))).toEqual(['failed_but_mined']);
    expect(auditRow(row({ stage: 'failed', costMicro: 0n, receipt: null }), [H1], new Map(), { availableMicro: 0n, pendingMicro: 0n })).toEqual([]);
    const reverted = row({ stage: 'reverted', value: '1000', receipt: { ...row().receipt!, status: 0 } });
    expect(auditRow(reverted, [H1], new Map([[H1, receipt(H1, 0)]]), ledger)).toEqual([]);
  });
});
