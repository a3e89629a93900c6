import { Injectable, Logger, OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import { toAppError } from '../../../common/errors/to-app-error';
import { ApiKeyCache } from '../../accounts';
import type { TxSocket } from './tx-socket.events';

/**
 * A socket authenticates once, at connection; this keeps it honest afterwards. Whenever keys or
 * accounts change (a revocation, a disabled account, a new ipWhitelist or domainWhitelist, on
 * this instance or another: ApiKeyCache's change signal), every open socket's credentials and
 * handshake origin are checked again and the socket is refused (401/403) when they no longer
 * pass. A check that fails for another reason (the database is briefly unreachable) leaves the
 * socket open.
 */
@Injectable()
export class SocketCredentialWatch implements OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger(SocketCredentialWatch.name);
  private readonly sockets = new Map<TxSocket, { recheck: () => Promise<void>; refuse: (err: unknown) => void }>();
  private stop?: () => void;

  constructor(private readonly keys: ApiKeyCache) {}

  onModuleInit(): void {
    this.stop = this.keys.onChange(() => void this.recheckAll());
  }

  onModuleDestroy(): void {
    this.stop?.();
  }

  watch(client: TxSocket, recheck: () => Promise<void>, refuse: (err: unknown) => void): void {
    this.sockets.set(client, { recheck, refuse });
    client.once('disconnect', () => this.sockets.delete(client));
  }

  private async recheckAll(): Promise<void> {
    await Promise.all(
      [...this.sockets.entries()].map(async ([client, { recheck, refuse }]) => {
        try {
          await recheck();
        } catch (err) {
          const { error } = toAppError(err);
          if (error.status === 401 || error.status === 403) {
            this.sockets.delete(client);
            refuse(err);
          } else {
            this.logger.warn(`socket credentials could not be re-checked, left open: ${error.message}`);
          }
        }
      }),
    );
  }
}
