import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { RelayApiError, RelayClient } from '../src';

type Reply = { status: number; headers?: Record<string, string>; body?: unknown };

/** A real HTTP server on 127.0.0.1 that answers from a script and records what it received. */
class ScriptedServer {
  readonly seen: Array<{ method: string; url: string; body: string; at: number; idempotencyKey?: string }> = [];
  script: Array<Reply> = [];
  private server!: Server;

  async start(): Promise<void> {
    this.server = createServer((req: IncomingMessage, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const key = req.headers['idempotency-key'];
        this.seen.push({ method: req.method ?? '', url: req.url ?? '', body: Buffer.concat(chunks).toString('utf8'), at: Date.now(), ...(typeof key === 'string' ? { idempotencyKey: key } : {}) });
        const reply = this.script.shift() ?? { status: 200, body: { code: 200, data: [] } };
        res.writeHead(reply.status, { 'content-type': 'application/json', ...reply.headers });
        res.end(JSON.stringify(reply.body ?? { success: false, error: { code: 'RATE_LIMIT_001', message: 'slow down', traceId: 't1' } }));
      });
    });
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
  }

  get url(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  close(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

const tx = { chainId: 31337, to: '0x5FbDB2315678afecb367f032d93F642f64180aa3', callData: '0x' };
const submitted = { status: 201, body: { success: true, data: { txId: 'c2d1e4f0-0000-4000-8000-000000000001', estimatedCostUSD: 0.01 } } };

describe('SDK retries honour Retry-After on 429/503 (a local HTTP server)', () => {
  const server = new ScriptedServer();
  beforeAll(() => server.start());
  afterAll(() => server.close());
  beforeEach(() => {
    server.seen.length = 0;
    server.script = [];
  });

  it('a GET answered 429 with Retry-After: 1 is sent again after a second, then succeeds', async () => {
    server.script = [{ status: 429, headers: { 'retry-after': '1' } }, { status: 200, body: { code: 200, data: [{ chainId: 31337 }] } }];
    const client = new RelayClient({ baseUrl: server.url, retry: { baseDelayMs: 10 } });
    const chains = await client.chains();
    expect(chains).toEqual([{ chainId: 31337 }]);
    expect(server.seen).toHaveLength(2);
    // The wait is Retry-After's, not the 10 ms backoff.
    expect(server.seen[1].at - server.seen[0].at).toBeGreaterThanOrEqual(950);
  });

  it('503 with an HTTP-date Retry-After is honoured too; without the header the backoff applies', async () => {
    server.script = [{ status: 503, headers: { 'retry-after': new Date(Date.now() + 2_000).toUTCString() } }, { status: 503 }, { status: 200, body: { code: 200, data: [] } }];
    const client = new RelayClient({ baseUrl: server.url, retry: { baseDelayMs: 50 } });
    await expect(client.chains()).resolves.toEqual([]);
    expect(server.seen).toHaveLength(3);
    expect(server.seen[1].at - server.seen[0].at).toBeGreaterThanOrEqual(900);
    expect(server.seen[2].at - server.seen[1].at).toBeLessThan(900);
  });

  it('attempts are bounded: the last 429 comes back as a RelayApiError carrying retryAfterSeconds', async () => {
    server.script = Array.from({ length: 5 }, () => ({ status: 429, headers: { 'retry-after': '0' } }));
    const client = new RelayClient({ baseUrl: server.url, retry: { attempts: 3 } });
    const err = await client.chains().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RelayApiError);
    expect(err).toMatchObject({ status: 429, code: 'RATE_LIMIT_001', retryAfterSeconds: 0 });
    expect(server.seen).toHaveLength(3);
  });

  it('a Retry-After longer than maxDelayMs is not waited for', async () => {
    server.script = [{ status: 429, headers: { 'retry-after': '120' } }];
    const client = new RelayClient({ baseUrl: server.url, retry: { maxDelayMs: 5_000 } });
    const started = Date.now();
    await expect(client.chains()).rejects.toMatchObject({ status: 429, retryAfterSeconds: 120 });
    expect(server.seen).toHaveLength(1);
    expect(Date.now() - started).toBeLessThan(2_000);
  });

  it('a POST without an Idempotency-Key is never sent twice; with one it is retried with the same body and key', async () => {
    const client = new RelayClient({ baseUrl: server.url, apiKey: 'k' });
    server.script = [{ status: 429, headers: { 'retry-after': '0' } }, submitted];
    await expect(client.relay.submit(tx)).rejects.toMatchObject({ status: 429 });
    expect(server.seen).toHaveLength(1);

    server.seen.length = 0;
    server.script = [{ status: 503, headers: { 'retry-after': '0' } }, submitted];
    await expect(client.relay.submit(tx, { idempotencyKey: 'order-42' })).resolves.toMatchObject({ txId: submitted.body.data.txId });
    expect(server.seen).toHaveLength(2);
    expect(server.seen.map((s) => s.idempotencyKey)).toEqual(['order-42', 'order-42']);
    expect(JSON.parse(server.seen[1].body)).toEqual(tx);
    expect(server.seen[1].body).toBe(server.seen[0].body);
  });

  it('other statuses and retry: false are answered at once', async () => {
    server.script = [{ status: 500, body: { success: false, error: { code: 'SYSTEM_001', message: 'x', traceId: 't' } } }];
    const client = new RelayClient({ baseUrl: server.url });
    await expect(client.chains()).rejects.toMatchObject({ status: 500 });
    expect(server.seen).toHaveLength(1);
    server.seen.length = 0;
    server.script = [{ status: 429, headers: { 'retry-after': '0' } }];
    await expect(new RelayClient({ baseUrl: server.url, retry: false }).chains()).rejects.toMatchObject({ status: 429 });
    expect(server.seen).toHaveLength(1);
  });
});
