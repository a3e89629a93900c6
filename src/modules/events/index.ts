/** What the app uses of events: the Socket.IO module and the adapter that fans events out across replicas. */
export { TxSocketModule } from './socket/tx-socket.module';
export { RedisIoAdapter } from './socket/redis-io.adapter';
export type { SocketErrorBody, SubscribeAck, TxClientEvents, TxServerEvents, TxSocketData } from './socket/tx-socket.events';
