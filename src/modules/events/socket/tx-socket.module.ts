import { Module } from '@nestjs/common';
import { AccountsModule } from '../../accounts';
import { RelayCoreModule } from '../../relay';
import { TxEventsModule } from '../../tx-events';
import { SocketAuthenticator } from './socket-authenticator.service';
import { TxSocketEmitter } from './tx-socket.emitter';
import { TxSocketGateway } from './tx-socket.gateway';
import { TxStatusForwarder } from './tx-status.forwarder';

/** Live transaction status over Socket.IO; the Redis adapter is installed in configureApp. */
@Module({
  // No module-level secret: the authenticator passes JWT_SECRET on each verify.
  imports: [AccountsModule, RelayCoreModule, TxEventsModule],
  providers: [SocketAuthenticator, TxSocketEmitter, TxSocketGateway, TxStatusForwarder],
  exports: [TxSocketEmitter],
})
export class TxSocketModule {}
