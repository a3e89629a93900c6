import type { RelayTransactionEntity } from './relay-transaction.entity';

/**
 * A relayed transaction as other modules read it: the row's fields as plain, read-only data.
 * The ORM class stays inside the relay (no repository, no save from a feature).
 */
export type RelayedTx = { readonly [K in keyof RelayTransactionEntity]: RelayTransactionEntity[K] };
