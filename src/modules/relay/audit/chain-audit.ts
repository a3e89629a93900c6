import type { MinedReceipt } from '../core/mined-receipt';
import { minedCostWei } from '../core/settlement-math';
import { outcomeOf } from '../core/stage';
import type { RelayTransactionEntity } from '../store/relay-transaction.entity';

export type AuditKind =
  /** An executed/reverted row whose recorded hash has no receipt on chain. */
  | 'hash_not_mined'
  /** The receipt's status disagrees with the row's final stage. */
  | 'status_mismatch'
  /** Another signed transaction of the row was mined as well (executed twice). */
  | 'second_mined'
  /** A row failed without charge although one of its transactions was mined. */
  | 'failed_but_mined'
  /** The row's recorded receipt prices the transaction differently from the chain (wei). */
  | 'cost_wei_mismatch'
  /** The row's charge differs from what the ledger moved for it (micro-USD). */
  | 'charge_mismatch'
  /** The ledger still holds a reservation for a final row (micro-USD). */
  | 'reservation_open'
  /** The row's cost differs from the chain's receipt converted at the row's recorded native price (micro-USD; GET /api/audit). */
  | 'cost_usd_mismatch';

export interface AuditMismatch {
  txId: string;
  chainId: number;
  kind: AuditKind;
  expected: string;
  actual: string;
}

export type AuditRow = Pick<RelayTransactionEntity, 'id' | 'chainId' | 'stage' | 'executionTxHash' | 'costMicro' | 'receipt' | 'transactionType' | 'value' | 'fundingCostWei'>;

/**
 * Every way a final row can disagree with the chain or the ledger. `receipts` holds the chain's
 * receipt for each of the row's hashes that is mined (lowercase hash); `ledger` the sums of the
 * row's `tx:<id>` entries (absent when it has none).
 */
export function auditRow(row: AuditRow, hashes: string[], receipts: Map<string, MinedReceipt>, ledger: { availableMicro: bigint; pendingMicro: bigint } | undefined): AuditMismatch[] {
  const out: AuditMismatch[] = [];
  const add = (kind: AuditKind, expected: string, actual: string) => out.push({ txId: row.id, chainId: row.chainId, kind, expected, actual });
  const mined = [...new Set(hashes.map((h) => h.toLowerCase()))].filter((h) => receipts.has(h));
  const recorded = row.executionTxHash?.toLowerCase() ?? null;

  const outcome = outcomeOf(row.stage);
  if (outcome === 'executed' || outcome === 'reverted') {
    const receipt = recorded ? receipts.get(recorded) : undefined;
    if (!receipt) {
      // One finding: the record names the wrong hash (what did get mined, if anything, is in `actual`).
      add('hash_not_mined', `${recorded ?? 'a hash'} mined`, mined.length > 0 ? `mined: ${mined.join(',')}` : 'no receipt');
      return [...out, ...ledgerFindings(row, ledger)];
    } else {
      const expectedStatus = outcome === 'executed' ? 1 : 0;
      if (receipt.status !== expectedStatus) add('status_mismatch', `status ${expectedStatus} (${row.stage})`, `status ${receipt.status}`);
      const chainWei = minedCostWei(row, receipt);
      const recordedWei = row.receipt ? minedCostWei(row, { status: row.receipt.status, gasUsed: BigInt(row.receipt.gasUsed), effectiveGasPrice: BigInt(row.receipt.effectiveGasPrice), l1Fee: BigInt(row.receipt.l1Fee) }) : null;
      if (recordedWei !== chainWei) add('cost_wei_mismatch', chainWei.toString(), recordedWei === null ? 'no receipt recorded' : recordedWei.toString());
    }
    const others = mined.filter((h) => h !== recorded);
    if (others.length > 0) add('second_mined', `only ${recorded} mined`, `also mined: ${others.join(',')}`);
  } else if (outcome === 'failed') {
    if (mined.length > 0) add(mined.length > 1 ? 'second_mined' : 'failed_but_mined', 'nothing mined', `mined: ${mined.join(',')}`);
  }

  return [...out, ...ledgerFindings(row, ledger)];
}

function ledgerFindings(row: AuditRow, ledger: { availableMicro: bigint; pendingMicro: bigint } | undefined): AuditMismatch[] {
  const out: AuditMismatch[] = [];
  const charged = -(ledger?.availableMicro ?? 0n);
  const cost = row.costMicro ?? 0n;
  if (charged !== cost) out.push({ txId: row.id, chainId: row.chainId, kind: 'charge_mismatch', expected: cost.toString(), actual: charged.toString() });
  const pending = ledger?.pendingMicro ?? 0n;
  if (pending !== 0n) out.push({ txId: row.id, chainId: row.chainId, kind: 'reservation_open', expected: '0', actual: pending.toString() });
  return out;
}
