import { createServer, Server } from 'node:http';
import { AddressInfo, Socket } from 'node:net';
import { RpcEndpoint } from './rpc-endpoint';
import { RpcPool } from './rpc-pool';

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

/**
 * A node that answers each call of a request with `answer(call)` as its result, or the whole
 * request with `whole(calls)` when that returns something; it records the bodies it was sent.
 */
async function batchNode(whole?: (calls: Array<{ id: unknown; method: string }>) => unknown) {
  const bodies: unknown[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as unknown;
      bodies.push(body);
      const calls = (Array.isArray(body) ? body : [body]) as Array<{ id: unknown; method: string }>;
      const replaced = whole?.(calls);
      if (replaced === 'reset') return void req.socket.destroy();
      const answers = calls.map((c) => ({ jsonrpc: '2.0', id: c.id, result: `${c.method}#${String(c.id)}` }));
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(replaced ?? (Array.isArray(body) ? answers : answers[0])));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    bodies,
    close: () => {
      server.closeAllConnections();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

describe('RpcEndpoint JSON-RPC batches (maxBatch)', () => {
  it('sends the calls of one turn as one request, each answered by its own id, at most maxBatch a request', async () => {
    const n = await batchNode();
    try {
      const e = new RpcEndpoint({ url: n.url, weight: 1, maxBatch: 3 }, n.url);
      const replies = await Promise.all(['a', 'b', 'c', 'd', 'e'].map((m) => e.call(m, [], 2_000)));
      expect(replies.map((r) => ('result' in r ? String(r.result).split('#')[0] : r))).toEqual(['a', 'b', 'c', 'd', 'e']);
      // Three in the first request, the other two together.
      expect(n.bodies.map((b) => (Array.isArray(b) ? b.length : 1))).toEqual([3, 2]);
      // A call alone in its turn goes as a single call.
      await e.call('f', [], 2_000);
      expect(Array.isArray(n.bodies[2])).toBe(false);
    } finally {
      await n.close();
    }
  });

  it('without maxBatch every call is its own request', async () => {
    const n = await batchNode();
    try {
      const e = new RpcEndpoint({ url: n.url, weight: 1 }, n.url);
      await Promise.all(['a', 'b', 'c'].map((m) => e.call(m, [], 2_000)));
      expect(n.bodies.filter((b) => Array.isArray(b))).toHaveLength(0);
      expect(n.bodies).toHaveLength(3);
    } finally {
      await n.close();
    }
  });

  it('a node error answers its own call only; a call the answer leaves out has no answer', async () => {
    const n = await batchNode((calls) => [
      { jsonrpc: '2.0', id: calls[0].id, error: { code: 3, message: 'execution reverted', data: '0x08c379a0' } },
      { jsonrpc: '2.0', id: calls[1].id, result: '0x2' },
    ]);
    try {
      const e = new RpcEndpoint({ url: n.url, weight: 1, maxBatch: 10 }, n.url);
      const [first, second, third] = await Promise.allSettled(['eth_call', 'eth_blockNumber', 'eth_chainId'].map((m) => e.call(m, [], 2_000)));
      expect(first).toEqual({ status: 'fulfilled', value: { error: { code: 3, message: 'execution reverted', data: '0x08c379a0' } } });
      expect(second).toEqual({ status: 'fulfilled', value: { result: '0x2' } });
      expect(third).toMatchObject({ status: 'rejected', reason: { reason: 'bad response' } });
    } finally {
      await n.close();
    }
  });

  it('a provider that answers a batch with one object takes single calls from then on', async () => {
    const n = await batchNode((calls) => (calls.length > 1 ? { jsonrpc: '2.0', id: null, error: { code: -32600, message: 'batch requests are not supported' } } : undefined));
    try {
      const e = new RpcEndpoint({ url: n.url, weight: 1, maxBatch: 10 }, n.url);
      const replies = await Promise.all(['a', 'b'].map((m) => e.call(m, [], 2_000)));
      expect(replies.map((r) => ('result' in r ? String(r.result).split('#')[0] : r))).toEqual(['a', 'b']);
      expect(e.batchRefused).toBe(true);
      await Promise.all(['c', 'd'].map((m) => e.call(m, [], 2_000)));
      // One refused batch, then single calls only.
      expect(n.bodies.map((b) => (Array.isArray(b) ? b.length : 1))).toEqual([2, 1, 1, 1, 1]);
    } finally {
      await n.close();
    }
  });

  it('a batch lost on the way fails every call in it as one failure of the provider', async () => {
    const n = await batchNode(() => 'reset');
    try {
      const pool = new RpcPool([{ url: n.url, weight: 1, maxBatch: 10 }], { chainId: 1, timeoutMs: 2_000, maxLagBlocks: 3 });
      const results = await Promise.allSettled(['eth_chainId', 'eth_gasPrice', 'eth_blockNumber'].map((m) => pool.request(m, [])));
      expect(results.every((r) => r.status === 'rejected')).toBe(true);
      expect(n.bodies).toHaveLength(1);
      // One failure: the first back-off (1 s), not the third (4 s) that three counted failures would open.
      const [endpoint] = pool.endpoints;
      expect(endpoint.failures).toBe(1);
      expect(endpoint.backedOffUntil - Date.now()).toBeLessThanOrEqual(1_000);
    } finally {
      await n.close();
    }
  });
});
