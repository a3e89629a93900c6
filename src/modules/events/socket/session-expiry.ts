import type { TxSocket } from './tx-socket.events';

// setTimeout overflows past 2^31-1 ms (fires at once), so long sessions re-arm instead.
const MAX_TIMER_MS = 2 ** 31 - 1;

/** Calls `onExpired` at `expiresAt` unless the socket has disconnected by then. */
export function whenExpired(client: TxSocket, expiresAt: number, onExpired: () => void): void {
  const timer = setTimeout(() => {
    if (Date.now() >= expiresAt) onExpired();
    else whenExpired(client, expiresAt, onExpired);
  }, Math.max(0, Math.min(expiresAt - Date.now(), MAX_TIMER_MS)));
  timer.unref();
  client.once('disconnect', () => clearTimeout(timer));
}
