import { createServer, Server } from 'node:http';
import { AddressInfo, Socket } from 'node:net';
import { RpcEndpoint } from './rpc-endpoint';

describe('RpcEndpoint health figures', () => {
  const endpoint = () => new RpcEndpoint({ url: 'http://127.0.0.1:1', weight: 1 }, 'http://127.0.0.1:1');

  it('latency p50 and error rate follow every outcome (kept between outcomes, not between calls)', () => {
    const e = endpoint();
    expect(e.latencyP50()).toBeNull();
    expect(e.errorRate()).toBe(0);
    e.succeeded(10);
    e.succeeded(30);
    e.succeeded(20);
    expect(e.latencyP50()).toBe(20);
    expect(e.errorRate()).toBe(0);
    e.failed('http 503');
    expect(e.errorRate()).toBe(0.25);
    e.succeeded(40);
    e.succeeded(50);
    expect(e.latencyP50()).toBe(30);
    expect(e.errorRate()).toBe(1 / 6);
  });
});

describe('RpcEndpoint over a kept-alive connection the provider closes', () => {
  /** A node whose connections serve `answered` requests each, then close on the next one without an answer. */
  async function provider(answered: number): Promise<{ url: string; requests: () => number; close: () => Promise<void> }> {
    let requests = 0;
    const served = new WeakMap<Socket, number>();
    const server: Server = createServer((req, res) => {
      requests++;
      const n = served.get(req.socket) ?? 0;
      served.set(req.socket, n + 1);
      req.resume();
      req.on('end', () => {
        if (n >= answered) return void req.socket.destroy();
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ jsonrpc: '2.0', id: 1, result: '0x1' }));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    return {
      url,
      requests: () => requests,
      close: () => {
        server.closeAllConnections();
        return new Promise<void>((resolve) => server.close(() => resolve()));
      },
    };
  }

  it('sends the call again on a new connection when the reused one is reset before any answer', async () => {
    const node = await provider(1);
    try {
      const e = new RpcEndpoint({ url: node.url, weight: 1 }, node.url);
      await expect(e.call('eth_blockNumber', [], 2_000)).resolves.toEqual({ result: '0x1' });
      // The second call goes out on the kept-alive connection, which the node closes: answered on a new one.
      await expect(e.call('eth_blockNumber', [], 2_000)).resolves.toEqual({ result: '0x1' });
      expect(node.requests()).toBe(3);
    } finally {
      await node.close();
    }
  });

  it('a reset on a new connection is a failure, not sent again', async () => {
    const node = await provider(0);
    try {
      const e = new RpcEndpoint({ url: node.url, weight: 1 }, node.url);
      await expect(e.call('eth_blockNumber', [], 2_000)).rejects.toMatchObject({ reason: 'connection reset' });
      expect(node.requests()).toBe(1);
    } finally {
      await node.close();
    }
  });

  it('sends again once only: a reset of the second attempt fails the call', async () => {
    let answered = false;
    let requests = 0;
    const server: Server = createServer((req, res) => {
      requests++;
      req.resume();
      req.on('end', () => {
        if (answered) return void req.socket.destroy();
        answered = true;
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ jsonrpc: '2.0', id: 1, result: '0x1' }));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      const e = new RpcEndpoint({ url, weight: 1 }, url);
      await e.call('eth_blockNumber', [], 2_000);
      await expect(e.call('eth_blockNumber', [], 2_000)).rejects.toMatchObject({ reason: 'connection reset' });
      expect(requests).toBe(3);
    } finally {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});

describe('RpcEndpoint request target', () => {
  it('posts to the URL path and query, with its credentials as basic auth', async () => {
    const seen: Array<{ url?: string; auth?: string }> = [];
    const server: Server = createServer((req, res) => {
      seen.push({ url: req.url, auth: req.headers.authorization });
      req.resume();
      req.on('end', () => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ jsonrpc: '2.0', id: 1, result: '0x2' })));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as AddressInfo).port;
    try {
      const url = `http://us%40er:p%3Ass@127.0.0.1:${port}/v3/key-123?tier=b`;
      const e = new RpcEndpoint({ url, weight: 1 }, 'redacted');
      await expect(e.call('eth_chainId', [], 2_000)).resolves.toEqual({ result: '0x2' });
      await expect(e.call('eth_chainId', [], 2_000)).resolves.toEqual({ result: '0x2' });
      const basic = `Basic ${Buffer.from('us@er:p:ss').toString('base64')}`;
      expect(seen).toEqual([
        { url: '/v3/key-123?tier=b', auth: basic },
        { url: '/v3/key-123?tier=b', auth: basic },
      ]);
    } finally {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});
