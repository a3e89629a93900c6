import { INestApplicationContext, Logger } from '@nestjs/common';
import { IoAdapter } from '@nestjs/platform-socket.io';
import { createAdapter } from '@socket.io/redis-adapter';
import Redis from 'ioredis';
import { Server, ServerOptions } from 'socket.io';
import { CORS_ALLOWED_HEADERS, parseCorsOrigins } from '../../../common/http/cors.middleware';
import { AppConfig } from '../../../config/app-config';

/**
 * Socket.IO with the Redis adapter, so rooms, broadcasts and fetchSockets span every API
 * instance. Its Redis connections open only when a gateway creates a server, so a process
 * without gateways (APP_ROLE=worker) opens none.
 */
export class RedisIoAdapter extends IoAdapter {
  private readonly logger = new Logger(RedisIoAdapter.name);
  private readonly clients: Redis[] = [];

  constructor(
    app: INestApplicationContext,
    private readonly config: AppConfig,
  ) {
    super(app);
  }

  override createIOServer(port: number, options?: Partial<ServerOptions>): Server {
    // Browsers on the polling transport need CORS too: the same origins and headers as the HTTP API.
    const origins = parseCorsOrigins(this.config.CORS_ORIGINS);
    const cors = { origin: origins === '*' ? '*' : [...origins], methods: ['GET', 'POST'], allowedHeaders: CORS_ALLOWED_HEADERS };
    const server = super.createIOServer(port, { ...options, cors }) as Server;
    // A subscribed connection can do nothing else, hence two; the adapter publishes on one.
    const pub = new Redis(this.config.REDIS_URL, { maxRetriesPerRequest: null });
    const sub = pub.duplicate();
    for (const client of [pub, sub]) {
      client.on('error', (err: Error) => this.logger.warn(`socket.io redis adapter: ${err.message}`));
      this.clients.push(client);
    }
    // Prefixed like every other key, so deployments (and tests) sharing a Redis stay apart.
    server.adapter(createAdapter(pub, sub, { key: `${this.config.REDIS_PREFIX}:socket.io` }));
    return server;
  }

  override async dispose(): Promise<void> {
    await Promise.all(this.clients.map((c) => c.quit().catch(() => c.disconnect())));
    this.clients.length = 0;
  }
}
