import type { RelayTransactionEntity } from '../store/relay-transaction.entity';

/**
 * A copy of the row with `changes`, same prototype; the caller's row is never edited. Spread,
 * then the prototype: for a row of 57 columns this took 0.9–1.2 µs where Object.assign onto
 * Object.create(prototype) took 6.6–10 µs (a loop over the two in one process), and a relayed
 * transaction is copied three times (signed, broadcast, settled).
 */
export function copyOf(tx: RelayTransactionEntity, changes: Partial<RelayTransactionEntity>): RelayTransactionEntity {
  return Object.setPrototypeOf({ ...tx, ...changes }, Object.getPrototypeOf(tx) as object) as RelayTransactionEntity;
}
