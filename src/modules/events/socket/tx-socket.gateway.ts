import { Logger } from '@nestjs/common';
import { ConnectedSocket, MessageBody, OnGatewayConnection, OnGatewayInit, SubscribeMessage, WebSocketGateway } from '@nestjs/websockets';
import { AppError } from '../../../common/errors/app-error';
import { toAppError } from '../../../common/errors/to-app-error';
import { TxQueryService } from '../../relay';
import { SocketCredentialWatch } from './credential-watch';
import { whenExpired } from './session-expiry';
import { SocketAuthenticator, SocketPrincipal } from './socket-authenticator.service';
import { parseSubscription } from './subscription-request';
import { accountRoom, SocketErrorBody, SubscribeAck, TxNamespace, TxSocket, txRoom } from './tx-socket.events';
import { TxSocketEmitter } from './tx-socket.emitter';

/** Socket.IO `/tx` (decisions.md, "WebSocket"): authenticate, then subscribe to rooms. */
@WebSocketGateway({ namespace: '/tx', path: '/socket.io' })
export class TxSocketGateway implements OnGatewayInit<TxNamespace>, OnGatewayConnection<TxSocket> {
  private readonly logger = new Logger(TxSocketGateway.name);
  // Nest binds message handlers before handleConnection finishes, so a subscribe sent right
  // after connecting must wait for the credentials check instead of being refused.
  private readonly sessions = new WeakMap<TxSocket, Promise<SocketPrincipal | null>>();

  constructor(
    private readonly authenticator: SocketAuthenticator,
    private readonly txs: TxQueryService,
    private readonly emitter: TxSocketEmitter,
    private readonly credentials: SocketCredentialWatch,
  ) {}

  afterInit(nsp: TxNamespace): void {
    this.emitter.attach(nsp);
  }

  async handleConnection(client: TxSocket): Promise<void> {
    const session = this.authenticate(client);
    this.sessions.set(client, session);
    await session;
  }

  @SubscribeMessage('subscribe')
  async subscribe(@ConnectedSocket() client: TxSocket, @MessageBody() body: unknown): Promise<SubscribeAck> {
    try {
      const principal = await this.sessions.get(client);
      if (!principal) throw new AppError('AUTH_001');
      const request = parseSubscription(body);
      if ('all' in request) {
        await client.join(accountRoom(principal.userId));
      } else {
        await this.requireOwn(principal.userId, request.txId);
        await client.join(txRoom(request.txId));
      }
      return { ok: true };
    } catch (err) {
      return { ok: false, error: this.errorBody(err) };
    }
  }

  private async authenticate(client: TxSocket): Promise<SocketPrincipal | null> {
    try {
      const principal = await this.authenticator.authenticate(client.handshake);
      client.data.userId = principal.userId;
      if (principal.expiresAt !== null) whenExpired(client, principal.expiresAt, () => this.refuse(client, new AppError('AUTH_005')));
      this.credentials.watch(
        client,
        // The same handshake (address, Origin) against the account's current keys and lists.
        async () => void (await this.authenticator.authenticate(client.handshake)),
        (err) => this.refuse(client, err),
      );
      return principal;
    } catch (err) {
      this.refuse(client, err);
      return null;
    }
  }

  /** Someone else's transaction answers exactly like a missing one, so ids cannot be probed. */
  private async requireOwn(userId: string, txId: string): Promise<void> {
    const tx = await this.txs.get(txId);
    if (tx.userId !== userId) throw new AppError('TRANSACTION_003', `transaction ${txId} not found`);
  }

  private refuse(client: TxSocket, err: unknown): void {
    client.emit('error', this.errorBody(err));
    client.disconnect(true);
  }

  private errorBody(err: unknown): SocketErrorBody {
    const { error, unexpected } = toAppError(err);
    if (unexpected) this.logger.error(`tx socket: ${(err as Error)?.stack ?? String(err)}`);
    return { code: error.code, message: error.message };
  }
}
