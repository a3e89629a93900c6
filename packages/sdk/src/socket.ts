import { io, type Socket } from 'socket.io-client';
import type { Credentials } from './http';
import type { TxNotification } from './types';

/** `account.deposit` (extensions.md, "Self-serve funding"): a deposit credited to the account. */
export interface DepositNotification {
  event: 'account.deposit';
  userId: string;
  chainId: number;
  txHash: string;
  /** The token's address; the zero address for the native currency. */
  token: string;
  /** In the token's smallest unit (decimal string). */
  amount: string;
  creditedUsd: number;
  timestamp: string;
}

interface ServerEvents {
  'tx.status': (notification: TxNotification) => void;
  'account.deposit': (event: DepositNotification) => void;
  error: (error: { code: string; message: string }) => void;
}
type SubscribeAck = { ok: true } | { ok: false; error: { code: string; message: string } };
interface ClientEvents {
  subscribe: (request: { txId: string } | { all: true }, ack: (answer: SubscribeAck) => void) => void;
}
export type TxSocket = Socket<ServerEvents, ClientEvents>;

/** Socket.IO namespace /tx (decisions.md "WebSocket"), authenticated with the API key or the JWT. */
export function connectTxSocket(baseUrl: string, credentials: Credentials): TxSocket {
  const auth = credentials.apiKey ? { apiKey: credentials.apiKey } : { token: credentials.jwt };
  return io(`${baseUrl.replace(/\/+$/, '')}/tx`, { path: '/socket.io', auth, transports: ['websocket'], reconnection: true, forceNew: true });
}

/** Subscribes (to one transaction or every one of the account) and resolves once the server acknowledged. */
export function subscribe(socket: TxSocket, request: { txId: string } | { all: true }): Promise<void> {
  return new Promise((resolve, reject) => {
    socket.emit('subscribe', request, (answer) => (answer.ok ? resolve() : reject(new Error(`${answer.error.code}: ${answer.error.message}`))));
  });
}
