import { createServer, IncomingMessage, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { postWebhook } from './http-post';

describe('postWebhook', () => {
  let server: Server;
  let port: number;
  const seen: IncomingMessage[] = [];
  let respond: (res: import('node:http').ServerResponse) => void;

  beforeAll(async () => {
    server = createServer((req, res) => {
      seen.push(req);
      req.resume();
      req.on('end', () => respond(res));
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(() => new Promise<void>((r) => server.close(() => r())));
  beforeEach(() => {
    seen.length = 0;
    respond = (res) => res.writeHead(204).end();
  });

  const post = (url: string, allowPrivate: boolean, timeoutMs = 2000) => postWebhook({ url, headers: { 'content-type': 'application/json' }, body: '{"a":1}', timeoutMs, allowPrivate });

  it('refuses a host resolving to loopback without connecting (delivery-time SSRF check)', async () => {
    for (const url of [`http://localhost:${port}/hook`, `http://127.0.0.1:${port}/hook`, `http://[::ffff:127.0.0.1]:${port}/hook`]) {
      const result = await post(url, false);
      expect(result).toEqual({ ok: false, statusCode: null, error: expect.stringMatching(/non-public address .*loopback/), timedOut: false, refused: true });
    }
    expect(seen).toHaveLength(0);
  });

  it('delivers to a private address when allowed, and counts only 2xx as success', async () => {
    expect(await post(`http://localhost:${port}/hook`, true)).toEqual({ ok: true, statusCode: 204, error: null, body: '' });
    expect(seen[0].headers['content-length']).toBe('7');
    respond = (res) => res.writeHead(302, { location: 'http://169.254.169.254/' }).end();
    expect(await post(`http://127.0.0.1:${port}/hook`, true)).toEqual({ ok: false, statusCode: 302, error: 'HTTP 302', body: '' });
    expect(seen).toHaveLength(2);
  });

  it('gives up after the timeout', async () => {
    respond = () => undefined;
    const started = Date.now();
    const result = await post(`http://127.0.0.1:${port}/slow`, true, 300);
    expect(result).toEqual({ ok: false, statusCode: null, error: 'timed out after 300 ms', timedOut: true });
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it('reports a host that does not resolve', async () => {
    const result = await post('http://no-such-host.invalid/hook', false);
    expect(result.ok).toBe(false);
    expect(result.error).toMatch(/does not resolve/);
  });
});
