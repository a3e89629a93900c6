/** TxNotification field order of decisions.md; jsonb does not keep key order, the body should. */
const ORDER = ['event', 'txId', 'userId', 'status', 'previousStatus', 'chainId', 'executionTxHash', 'costUSD', 'retries', 'timestamp', 'failureReason', 'revertReason', 'stages'];

export function notificationBody(payload: Record<string, unknown>): string {
  const ordered: Record<string, unknown> = {};
  for (const key of ORDER) if (key in payload) ordered[key] = payload[key];
  for (const [key, value] of Object.entries(payload)) if (!(key in ordered)) ordered[key] = value;
  return JSON.stringify(ordered);
}
