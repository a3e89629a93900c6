import { Injectable } from '@nestjs/common';
import type { AccountEvent, TxNotification } from '../../tx-events';
import { accountRoom, TxNamespace, txRoom } from './tx-socket.events';

/**
 * The only place that sends to `/tx` sockets. Emits reach this instance's sockets only:
 * every API instance receives every Redis tx signal itself, so a broadcast through the
 * Redis adapter would deliver each event once per instance (docs/decisions.md, "WebSocket").
 */
@Injectable()
export class TxSocketEmitter {
  private nsp?: TxNamespace;

  /** Called by the gateway once Socket.IO has created the namespace. */
  attach(nsp: TxNamespace): void {
    this.nsp = nsp;
  }

  /** One delivery per socket even when it is in both rooms (Socket.IO unions the rooms). */
  txStatus(notification: TxNotification): void {
    this.nsp?.local.to([accountRoom(notification.userId), txRoom(notification.txId)]).emit('tx.status', notification);
  }

  /** Account events (account.low_balance, account.deposit) to the account's room. */
  accountEvent(event: AccountEvent): void {
    const room = this.nsp?.local.to(accountRoom(event.userId));
    if (event.event === 'account.deposit') room?.emit('account.deposit', event);
    else room?.emit('account.low_balance', event);
  }
}
