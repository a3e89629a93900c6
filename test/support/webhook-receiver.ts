import { createServer, IncomingHttpHeaders, Server } from 'node:http';
import { AddressInfo } from 'node:net';

export interface ReceivedCall {
  path: string;
  headers: IncomingHttpHeaders;
  raw: string;
  body: Record<string, unknown>;
  status: number;
}

export type Reply = number | { status: number; body?: unknown };

/**
 * A real HTTP receiver on 127.0.0.1 for webhook specs. `reply` decides each response status
 * (default 200); every call is recorded with the status it was answered with.
 */
export class WebhookReceiver {
  readonly calls: ReceivedCall[] = [];
  /** A status, or a status with a JSON body (the approval webhook's answer). */
  reply: (call: Omit<ReceivedCall, 'status'>, index: number) => Reply | Promise<Reply> = () => 200;
  private server?: Server;
  private seen = 0;

  static async start(port = 0): Promise<WebhookReceiver> {
    const receiver = new WebhookReceiver();
    await receiver.listen(port);
    return receiver;
  }

  get port(): number {
    return (this.server!.address() as AddressInfo).port;
  }

  url(path = '/hook'): string {
    return `http://127.0.0.1:${this.port}${path}`;
  }

  async listen(port: number): Promise<void> {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const raw = Buffer.concat(chunks).toString('utf8');
        let body: Record<string, unknown> = {};
        try {
          body = JSON.parse(raw);
        } catch {
          // recorded as raw only
        }
        const call = { path: req.url ?? '', headers: req.headers, raw, body };
        const index = this.seen++;
        void Promise.resolve(this.reply(call, index)).then((reply) => {
          const { status, body } = typeof reply === 'number' ? { status: reply, body: undefined } : reply;
          this.calls.push({ ...call, status });
          if (res.destroyed) return;
          if (body === undefined) res.writeHead(status).end();
          else res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
        });
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(port, '127.0.0.1', resolve));
  }

  close(): Promise<void> {
    return new Promise((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }

  /** Waits until `done(calls)` holds, or fails after the timeout with what arrived. */
  async waitFor(done: (calls: ReceivedCall[]) => boolean, timeoutMs = 20_000): Promise<ReceivedCall[]> {
    const deadline = Date.now() + timeoutMs;
    while (!done(this.calls)) {
      if (Date.now() > deadline) throw new Error(`receiver timed out with ${this.calls.length} call(s): ${JSON.stringify(this.calls.map((c) => [c.path, c.body.status, c.status]))}`);
      await new Promise((r) => setTimeout(r, 50));
    }
    return this.calls;
  }
}
