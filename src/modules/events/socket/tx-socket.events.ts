import type { Namespace, Socket } from 'socket.io';
import type { DepositEvent, LowBalanceEvent, TxNotification } from '../../tx-events';

/** What the client learns when it is refused or a request fails: a catalog code and its message. */
export interface SocketErrorBody {
  code: string;
  message: string;
}

export type SubscribeAck = { ok: true } | { ok: false; error: SocketErrorBody };

/** Events the server sends on `/tx` (decisions.md, "WebSocket"). */
export interface TxServerEvents {
  'tx.status': (notification: TxNotification) => void;
  /** To the account's room (extensions.md, "Low balance"). */
  'account.low_balance': (event: LowBalanceEvent) => void;
  /** To the account's room (extensions.md, "Self-serve funding"): a deposit credited. */
  'account.deposit': (event: DepositEvent) => void;
  error: (error: SocketErrorBody) => void;
}

/** Events a client may send on `/tx`; the payload is untrusted, so it is parsed, not typed. */
export interface TxClientEvents {
  subscribe: (request: unknown, ack?: (answer: SubscribeAck) => void) => void;
}

// Plain data only: the Redis adapter serializes it for cross-instance fetchSockets.
export interface TxSocketData {
  userId?: string;
}

export type TxNamespace = Namespace<TxClientEvents, TxServerEvents, Record<string, never>, TxSocketData>;
export type TxSocket = Socket<TxClientEvents, TxServerEvents, Record<string, never>, TxSocketData>;

export const accountRoom = (userId: string): string => `account:${userId}`;
export const txRoom = (txId: string): string => `tx:${txId}`;
