/**
 * Local stand-in for the exchange of an exchange-action chain, so the relay's exchange path can run
 * end to end without a real venue. It checks what a real exchange checks before anything else
 * (signature, freshness, replay) and then accepts; there is no order book behind it.
 *
 *   POST /exchange  body {action, nonce, signature} (src/modules/relay/exchange/exchange-action.ts)
 *     200 {"status":"ok","response":{"type":"default","trader":"0x…","nonce":…}}  accepted
 *     400 {"status":"err","response":"<reason>"}  malformed body, stale or reused nonce, bad signature,
 *         unknown trader; 413 for a body over the size cap
 *   GET /health     200 {"status":"ok"}
 *
 * The trader is whoever the signature recovers to. A signature for another chain or over other bytes
 * recovers to some unrelated address, so, like a real exchange that only knows funded accounts, the
 * server can be given the known traders and then rejects everyone else; without that list any
 * recovered address is accepted. Used nonces live in memory and die with the process.
 */
import { createServer, IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { MAX_EXCHANGE_REQUEST_BYTES, parseExchangeRequest, recoverExchangeSigner } from '../../src/modules/relay/intake/exchange/exchange-action';
import { NonceBook } from './nonce-book';

export interface ExchangeServerOptions {
  /** 0 picks a free port. */
  port: number;
  chainId: number;
  /** Defaults to 127.0.0.1. */
  host?: string;
  /** Known traders (any case); absent means any address a signature recovers to is a trader. */
  traders?: readonly string[];
  /** Clock for nonce freshness, in ms; tests move it. */
  now?: () => number;
  log?: (line: string) => void;
}

export interface RunningExchangeServer {
  /** Base URL, e.g. http://127.0.0.1:8547; the endpoint is `${url}/exchange`. */
  url: string;
  stop(): Promise<void>;
}

type Reply = { status: number; body: unknown };

const UTF8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

class RequestTooLargeError extends Error {}

export async function startExchangeServer(options: ExchangeServerOptions): Promise<RunningExchangeServer> {
  const host = options.host ?? '127.0.0.1';
  const handle = exchangeHandler(options);
  const server = createServer((req, res) => {
    handle(req)
      .catch((err: unknown): Reply => {
        if (err instanceof RequestTooLargeError) return reject(413, err.message);
        options.log?.(`internal error: ${err instanceof Error ? err.stack : String(err)}`);
        return reject(500, 'internal error');
      })
      .then((reply) => send(req, res, reply))
      .catch(() => res.destroy());
  });
  // Slow or idle clients must not pin sockets of a process that other tests share.
  server.requestTimeout = 10_000;
  server.headersTimeout = 10_000;

  await listen(server, options.port, host);
  const { port } = server.address() as AddressInfo;
  let stopped: Promise<void> | undefined;
  return {
    url: `http://${host.includes(':') ? `[${host}]` : host}:${port}`,
    stop: () => (stopped ??= close(server)),
  };
}

function exchangeHandler(options: ExchangeServerOptions): (req: IncomingMessage) => Promise<Reply> {
  const nonces = new NonceBook();
  const traders = options.traders ? new Set(options.traders.map((t) => t.toLowerCase())) : undefined;
  const now = options.now ?? Date.now;
  const log = options.log ?? (() => undefined);

  return async (req) => {
    const path = (req.url ?? '/').split('?')[0];
    if (path === '/health') return req.method === 'GET' ? { status: 200, body: { status: 'ok' } } : reject(405, 'method not allowed');
    if (path !== '/exchange') return reject(404, `no route ${path}`);
    if (req.method !== 'POST') return reject(405, 'method not allowed');

    const body = await readJson(req);
    if (body === undefined) return reject(400, 'body is not UTF-8 JSON');
    const parsed = parseExchangeRequest(body);
    if (!parsed.ok) return reject(400, parsed.reason);
    const request = parsed.request;

    let trader: string;
    try {
      trader = recoverExchangeSigner(options.chainId, request);
    } catch (err) {
      return reject(400, `invalid signature: ${(err as Error).message}`);
    }
    if (traders && !traders.has(trader)) {
      log(`rejected ${request.action.type} nonce ${request.nonce}: unknown trader ${trader}`);
      return reject(400, `unknown trader ${trader} (wrong key, wrong chain id or a tampered action)`);
    }
    const nonceProblem = nonces.claim(trader, request.nonce, now());
    if (nonceProblem !== undefined) {
      log(`rejected ${request.action.type} from ${trader}: ${nonceProblem}`);
      return reject(400, nonceProblem);
    }
    log(`accepted ${request.action.type} from ${trader} nonce ${request.nonce}`);
    return { status: 200, body: { status: 'ok', response: { type: 'default', trader, nonce: request.nonce } } };
  };
}

function reject(status: number, reason: string): Reply {
  return { status, body: { status: 'err', response: reason } };
}

/** The parsed body, or undefined when it is not UTF-8 JSON; throws RequestTooLargeError over the cap. */
async function readJson(req: IncomingMessage): Promise<unknown> {
  const tooLarge = `body exceeds ${MAX_EXCHANGE_REQUEST_BYTES} bytes`;
  if (Number(req.headers['content-length'] ?? 0) > MAX_EXCHANGE_REQUEST_BYTES) throw new RequestTooLargeError(tooLarge);
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_EXCHANGE_REQUEST_BYTES) throw new RequestTooLargeError(tooLarge);
    chunks.push(chunk as Buffer);
  }
  try {
    return JSON.parse(UTF8.decode(Buffer.concat(chunks))) as unknown;
  } catch {
    return undefined;
  }
}

function send(req: IncomingMessage, res: ServerResponse, reply: Reply): void {
  if (res.headersSent || res.destroyed) return;
  const payload = JSON.stringify(reply.body);
  // After refusing a body part-way we stop reading it, so the connection cannot be reused.
  const unread = !req.complete;
  res.writeHead(reply.status, {
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(payload),
    ...(unread ? { connection: 'close' } : {}),
  });
  res.end(payload);
  if (unread) res.once('finish', () => req.destroy());
}

function listen(server: Server, port: number, host: string): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
}

function close(server: Server): Promise<void> {
  return new Promise((resolve, reject) => {
    server.close((err) => (err ? reject(err) : resolve()));
    // Keep-alive connections from fetch would otherwise hold close() open until they time out.
    server.closeAllConnections();
  });
}
