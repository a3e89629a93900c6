import type { FailureReason as EventFailureReason, TxRecord, TxStatus as EventTxStatus } from '../../tx-events';
import { TX_STATUSES, type TxStatus } from '../core/stage';
import { FAILURE_REASONS, type FailureReason, RelayTransactionEntity } from './relay-transaction.entity';

/**
 * tx-events owns the shape it announces (so it imports nothing of the relay); these checks fail
 * to compile, and so fail the unit run, when the relay's statuses, failure reasons or row drift
 * from it.
 */
type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
const same = <T extends true>(value: T): T => value;

describe('the relay row is a tx-events TxRecord', () => {
  it('has the same statuses and failure reasons', () => {
    expect(same<Equal<TxStatus, EventTxStatus>>(true)).toBe(true);
    expect(same<Equal<FailureReason, EventFailureReason>>(true)).toBe(true);
    expect([...TX_STATUSES].sort()).toEqual(['EXECUTED', 'FAILED', 'PENDING']);
    expect(FAILURE_REASONS.length).toBe(6);
  });

  it('is assignable to a TxRecord', () => {
    const record: TxRecord = new RelayTransactionEntity();
    expect(record).toBeInstanceOf(RelayTransactionEntity);
  });
});
