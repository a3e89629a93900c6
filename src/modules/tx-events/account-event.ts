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

/** The webhook body and Socket.IO event of extensions.md, "Self-serve funding": a deposit credited at its depth. */
export interface DepositEvent {
  event: 'account.deposit';
  userId: string;
  chainId: number;
  txHash: string;
  /** The token's address; the zero address for the native currency. */
  token: string;
  /** In the token's smallest unit (decimal string). */
  amount: string;
  /** USD */
  creditedUsd: number;
  timestamp: string;
}

/** Events about an account rather than a transaction; written to the same outbox (tx_id null). */
export type AccountEvent = LowBalanceEvent | DepositEvent;
