import { Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { createServer, IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { AppConfig } from '../../config/app-config';
import { MetricsService } from '../metrics';
import { Readiness } from './readiness.service';

/**
 * The operations listener: GET /metrics (no token), /livez and /readyz, nothing else, for a
 * scraper and the orchestrator on the internal network (the port is not published). It listens
 * on METRICS_PORT in every role; a worker without METRICS_PORT, which has no API listener,
 * takes PORT for it, so every process of the api/worker split can be watched.
 */
@Injectable()
export class OpsListener implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(OpsListener.name);
  private server?: Server;

  constructor(
    private readonly config: AppConfig,
    private readonly metrics: MetricsService,
    private readonly readiness: Readiness,
  ) {}

  /** The port it listens on, or null when it does not listen. */
  get port(): number | null {
    const address = this.server?.address();
    return address && typeof address === 'object' ? (address as AddressInfo).port : null;
  }

  /** METRICS_PORT, else PORT for a worker (nothing else listens there), else none. */
  private wantedPort(): number | undefined {
    if (this.config.METRICS_PORT !== undefined) return this.config.METRICS_PORT;
    return this.config.APP_ROLE === 'worker' ? this.config.PORT : undefined;
  }

  async onApplicationBootstrap(): Promise<void> {
    const port = this.wantedPort();
    if (port === undefined) return;
    const server = createServer((req, res) => void this.handle(req, res));
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, () => resolve());
    });
    this.server = server;
    this.logger.log(`operations listener on port ${this.port} (GET /metrics, /livez, /readyz)`);
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const path = (req.url ?? '').split('?')[0];
    if (req.method !== 'GET' && req.method !== 'HEAD') return void res.writeHead(405, { allow: 'GET, HEAD', 'content-type': 'text/plain' }).end('method not allowed\n');
    try {
      if (path === '/metrics') return void res.writeHead(200, { 'content-type': 'text/plain; version=0.0.4' }).end(await this.metrics.registry.metrics());
      if (path === '/livez') return void json(res, 200, this.readiness.alive());
      if (path === '/readyz') {
        const body = await this.readiness.ready();
        return void json(res, body.status === 'ready' ? 200 : 503, body);
      }
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found\n');
    } catch (err) {
      res.writeHead(500, { 'content-type': 'text/plain' }).end(`${(err as Error).name}\n`);
    }
  }

  async onApplicationShutdown(): Promise<void> {
    const server = this.server;
    if (!server) return;
    this.server = undefined;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}

function json(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json', 'cache-control': 'no-store' }).end(JSON.stringify(body));
}
