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

/**
 * A node that answers `0x1` when `answer(nth request on its connection, nth request overall)`
 * says so and otherwise closes the connection without an answer; it records each request.
 */
async function node(answer: (onConnection: number, overall: number) => boolean) {
  const seen: Array<{ url?: string; auth?: string }> = [];
  const served = new WeakMap<Socket, number>();
  const server: Server = createServer((req, res) => {
    const onConnection = served.get(req.socket) ?? 0;
    served.set(req.socket, onConnection + 1);
    const overall = seen.length;
    seen.push({ url: req.url, auth: req.headers.authorization });
    req.resume();
    req.on('end', () => {
      if (!answer(onConnection, overall)) return void req.socket.destroy();
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ jsonrpc: '2.0', id: 1, result: '0x1' }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    seen,
    close: () => {
      server.closeAllConnections();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

describe('RpcEndpoint over a kept-alive connection the provider closes', () => {
  async function withNode(answer: (onConnection: number, overall: number) => boolean, body: (e: RpcEndpoint, seen: unknown[]) => Promise<void>) {
    const n = await node(answer);
    const url = `http://127.0.0.1:${n.port}`;
    try {
      await body(new RpcEndpoint({ url, weight: 1 }, url), n.seen);
    } finally {
      await n.close();
    }
  }

  it('sends the call again on a new connection when the reused one is reset before any answer', () =>
    // Each connection answers its first request only.
    withNode((onConnection) => onConnection === 0, async (e, seen) => {
      await expect(e.call('eth_blockNumber', [], 2_000)).resolves.toEqual({ result: '0x1' });
      // The second call goes out on the kept-alive connection, which the node closes: answered on a new one.
      await expect(e.call('eth_blockNumber', [], 2_000)).resolves.toEqual({ result: '0x1' });
      expect(seen).toHaveLength(3);
    }));

  it('a reset on a new connection is a failure, not sent again', () =>
    withNode(() => false, async (e, seen) => {
      await expect(e.call('eth_blockNumber', [], 2_000)).rejects.toMatchObject({ reason: 'connection reset' });
      expect(seen).toHaveLength(1);
    }));

  it('sends again once only: a reset of the second attempt fails the call', () =>
    // Only the very first request is answered.
    withNode((_, overall) => overall === 0, async (e, seen) => {
      await e.call('eth_blockNumber', [], 2_000);
      await expect(e.call('eth_blockNumber', [], 2_000)).rejects.toMatchObject({ reason: 'connection reset' });
      expect(seen).toHaveLength(3);
    }));
});

describe('RpcEndpoint request target', () => {
  it('posts to the URL path and query, with its credentials as basic auth', async () => {
    const n = await node(() => true);
    try {
      const e = new RpcEndpoint({ url: `http://us%40er:p%3Ass@127.0.0.1:${n.port}/v3/key-123?tier=b`, weight: 1 }, 'redacted');
      await expect(e.call('eth_chainId', [], 2_000)).resolves.toEqual({ result: '0x1' });
      await expect(e.call('eth_chainId', [], 2_000)).resolves.toEqual({ result: '0x1' });
      const basic = `Basic ${Buffer.from('us@er:p:ss').toString('base64')}`;
      expect(n.seen).toEqual([
        { url: '/v3/key-123?tier=b', auth: basic },
        { url: '/v3/key-123?tier=b', auth: basic },
      ]);
    } finally {
      await n.close();
    }
  });
});
