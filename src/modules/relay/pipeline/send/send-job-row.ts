import { RelayTransactionEntity } from '../../store/relay-transaction.entity';

/** A relay row as JSON for a send job: bigints as decimal strings, dates as ISO strings. */
export type SendJobRow = Record<string, unknown>;

const BIGINTS = ['nonce', 'estimatedCostMicro', 'maxCostMicro', 'costMicro'] as const;
const DATES = ['createdAt', 'updatedAt', 'validUntil'] as const;

/**
 * The row as the submission wrote it, carried by the first send job so the worker reads nothing
 * before signing. Only a first send may use it: the statement that consumes the nonce checks that
 * the row is still accepted (see FirstSend and Claim), so a stale copy cannot send twice.
 */
export function toJobRow(tx: RelayTransactionEntity): SendJobRow {
  const row: SendJobRow = { ...tx };
  for (const key of BIGINTS) row[key] = tx[key] === null ? null : String(tx[key]);
  for (const key of DATES) row[key] = tx[key] instanceof Date ? tx[key].toISOString() : null;
  return row;
}

export function fromJobRow(row: SendJobRow): RelayTransactionEntity {
  const tx = Object.assign(new RelayTransactionEntity(), row);
  for (const key of BIGINTS) (tx as unknown as Record<string, unknown>)[key] = row[key] === null || row[key] === undefined ? null : BigInt(row[key] as string);
  for (const key of DATES) (tx as unknown as Record<string, unknown>)[key] = typeof row[key] === 'string' ? new Date(row[key] as string) : row[key];
  return tx;
}
