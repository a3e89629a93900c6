/** The webhook body and Socket.IO event of extensions.md, "Low balance". */
export interface LowBalanceEvent {
  event: 'account.low_balance';
  userId: string;
  /** USD */
  availableBalance: number;
  /** USD */
  threshold: number;
  timestamp: string;
}

/** Events about an account rather than a transaction; written to the same outbox (tx_id null). */
export type AccountEvent = LowBalanceEvent;
