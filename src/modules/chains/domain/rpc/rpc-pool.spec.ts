import { createServer, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { Transaction, Wallet } from 'ethers';
import { RpcUnavailableError } from '../../../../common/evm/rpc-unavailable';
import { RpcPool, RpcPoolOptions } from './rpc-pool';

type Answer = { result: unknown } | { error: { code: number; message: string } } | { status: number; headers?: Record<string, string> } | 'stall';

/** A JSON-RPC endpoint on a real socket, answering by a function of (method, params). */
async function fakeNode(answer: (method: string, params: unknown[]) => Answer | Promise<Answer>) {
  const calls: Array<{ method: string; params: unknown[] }> = [];
  const server: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      void (async () => {
        const { id, method, params } = JSON.parse(body) as { id: number; method: string; params: unknown[] };
        calls.push({ method, params });
        const a = await answer(method, params);
        if (a === 'stall') return; // never answers
        if ('status' in a) return void res.writeHead(a.status, a.headers ?? {}).end('{}');
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ jsonrpc: '2.0', id, ...a }));
      })();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v3/SECRETKEY`;
  return {
    url,
    calls,
    count: (method: string) => calls.filter((c) => c.method === method).length,
    close: () => new Promise<void>((r) => (server.closeAllConnections(), server.close(() => r()))),
  };
}

/** A URL nothing listens on: connections are refused. */
const DEAD = 'http://127.0.0.1:9/dead';
const hex = (n: number) => `0x${n.toString(16)}`;
const head = (n: number) => (method: string) => (method === 'eth_blockNumber' ? { result: hex(n) } : method === 'eth_chainId' ? { result: '0x1' } : { result: null });

describe('RpcPool', () => {
  const open: Array<{ close(): Promise<void> }> = [];
  afterEach(async () => {
    await Promise.all(open.splice(0).map((n) => n.close()));
  });
  const node = async (answer: Parameters<typeof fakeNode>[0]) => {
    const n = await fakeNode(answer);
    open.push(n);
    return n;
  };
  const pool = (urls: string[], opts: Partial<RpcPoolOptions> = {}) =>
    new RpcPool(
      urls.map((url) => ({ url, weight: 1 })),
      { chainId: 1, timeoutMs: 2000, maxLagBlocks: 3, ...opts },
      () => 0, // the first healthy provider in order is drawn first
    );

  it('answers a read from another provider when one refuses connections, and backs the dead one off', async () => {
    const good = await node(head(10));
    const p = pool([DEAD, good.url]);
    await expect(p.request('eth_blockNumber', [])).resolves.toEqual({ result: '0xa' });
    const dead = p.endpoints[0];
    expect(dead.healthy()).toBe(false);
    expect(dead.lastError).toBe('connection refused');
    expect(dead.backedOffUntil).toBeGreaterThan(Date.now() + 500);
    // Backed off: the next reads do not try it.
    await p.request('eth_blockNumber', []);
    expect(good.count('eth_blockNumber')).toBe(2);
  });

  it('retries on another provider within the budget when one stalls', async () => {
    const stalled = await node(() => 'stall');
    const good = await node(head(7));
    const p = pool([stalled.url, good.url], { timeoutMs: 1000 });
    const started = Date.now();
    await expect(p.request('eth_blockNumber', [])).resolves.toEqual({ result: '0x7' });
    expect(Date.now() - started).toBeLessThan(1000);
    expect(p.endpoints[0].lastError).toBe('timeout');
  });

  it('honours a 429 Retry-After (at least 1 s) and a -32005 answer with a back-off', async () => {
    const limited = await node(() => ({ status: 429, headers: { 'retry-after': '3' } }));
    const capped = await node(() => ({ error: { code: -32005, message: 'limit exceeded' } }));
    const good = await node(head(5));
    const p = pool([limited.url, capped.url, good.url]);
    await expect(p.request('eth_blockNumber', [])).resolves.toEqual({ result: '0x5' });
    expect(p.endpoints[0].backedOffUntil - Date.now()).toBeGreaterThan(2500);
    expect(p.endpoints[1].backedOffUntil - Date.now()).toBeGreaterThan(500);
    for (let i = 0; i < 5; i++) await p.request('eth_blockNumber', []);
    expect(limited.calls).toHaveLength(1);
    expect(capped.calls).toHaveLength(1);
  });

  it('half-opens after the back-off: one trial call, a success closes the circuit', async () => {
    let down = true;
    const flaky = await node((m) => (down ? { status: 503 } : head(3)(m)));
    const p = pool([flaky.url]);
    await expect(p.request('eth_blockNumber', [])).rejects.toMatchObject({ reason: 'http 503' });
    const e = p.endpoints[0];
    expect(e.available()).toBe(false);
    e.backedOffUntil = Date.now() - 1; // the back-off ran out
    down = false;
    expect(e.available()).toBe(true);
    await expect(p.request('eth_blockNumber', [])).resolves.toEqual({ result: '0x3' });
    expect(e.healthy()).toBe(true);
    expect(e.failures).toBe(0);
  });

  it('a failed trial opens the circuit again for twice as long', async () => {
    const down = await node(() => ({ status: 502 }));
    const p = pool([down.url]);
    await p.request('eth_blockNumber', []).catch(() => undefined);
    const first = p.endpoints[0].backedOffUntil - Date.now();
    p.endpoints[0].backedOffUntil = Date.now() - 1;
    await p.request('eth_blockNumber', []).catch(() => undefined);
    expect(p.endpoints[0].backedOffUntil - Date.now()).toBeGreaterThan(first + 500);
  });

  it('never backs a provider off for what a node says about the transaction', async () => {
    const a = await node(() => ({ error: { code: -32000, message: 'nonce too low: next nonce 5, tx nonce 4' } }));
    const b = await node(() => ({ error: { code: -32000, message: 'nonce too low' } }));
    const p = pool([a.url, b.url]);
    const raw = await signed();
    const reply = await p.request('eth_sendRawTransaction', [raw]);
    expect(reply).toEqual({ error: expect.objectContaining({ message: expect.stringContaining('nonce too low') }) });
    expect(p.endpoints.every((e) => e.healthy())).toBe(true);
  });

  it('broadcasts the same bytes to every available provider and counts it sent when one accepts', async () => {
    const raw = await signed();
    const hash = Transaction.from(raw).hash;
    const refusing = await node(() => ({ error: { code: -32000, message: 'txpool is full' } }));
    const taking = await node(() => ({ result: hash }));
    const knowing = await node(() => ({ error: { code: -32000, message: 'already known' } }));
    const p = pool([DEAD, refusing.url, taking.url, knowing.url]);
    await expect(p.request('eth_sendRawTransaction', [raw])).resolves.toEqual({ result: hash });
    await new Promise((r) => setTimeout(r, 100));
    for (const n of [refusing, taking, knowing]) expect(n.calls).toEqual([{ method: 'eth_sendRawTransaction', params: [raw] }]);
  });

  it('with no acceptance, the node refusal beats a provider failure, and with none at all it is RpcUnavailableError', async () => {
    const raw = await signed();
    const refusing = await node(() => ({ error: { code: -32000, message: 'replacement transaction underpriced' } }));
    await expect(pool([DEAD, refusing.url]).request('eth_sendRawTransaction', [raw])).resolves.toEqual({ error: expect.objectContaining({ message: 'replacement transaction underpriced' }) });
    await expect(pool([DEAD]).request('eth_sendRawTransaction', [raw])).rejects.toBeInstanceOf(RpcUnavailableError);
  });

  it('asks no lagging provider for a receipt: its "no receipt" is never evidence', async () => {
    const fresh = await node((m) => (m === 'eth_getTransactionReceipt' ? { status: 503 } : head(100)(m)));
    const lagging = await node(head(90));
    const p = pool([fresh.url, lagging.url]);
    await p.pollHeads();
    expect(p.lagOf(p.endpoints[1])).toBe(10);
    await expect(p.request('eth_getTransactionReceipt', ['0xabc'])).rejects.toBeInstanceOf(RpcUnavailableError);
    expect(lagging.count('eth_getTransactionReceipt')).toBe(0);
    // An ordinary read may still use it.
    await expect(p.request('eth_gasPrice', [])).resolves.toEqual({ result: null });
    expect(lagging.count('eth_gasPrice')).toBe(1);
  });

  it('asks the provider that took the transaction for its receipt first', async () => {
    const raw = await signed();
    const hash = Transaction.from(raw).hash;
    const other = await node((m) => (m === 'eth_sendRawTransaction' ? { error: { code: -32000, message: 'txpool is full' } } : head(5)(m)));
    const taker = await node((m) => (m === 'eth_sendRawTransaction' ? { result: hash } : head(5)(m)));
    const p = pool([other.url, taker.url]);
    await p.pollHeads();
    await p.request('eth_sendRawTransaction', [raw]);
    await p.request('eth_getTransactionReceipt', [hash]);
    expect(taker.count('eth_getTransactionReceipt')).toBe(1);
    expect(other.count('eth_getTransactionReceipt')).toBe(0);
  });

  it('splits eth_getLogs to the providers getLogsMaxRange and halves a range refused as too large', async () => {
    const ranges: Array<[number, number]> = [];
    const n = await node((m, params) => {
      const f = params[0] as { fromBlock: string; toBlock: string };
      const [from, to] = [Number(f.fromBlock), Number(f.toBlock)];
      ranges.push([from, to]);
      if (to - from + 1 > 4) return { error: { code: -32005, message: 'query exceeds max block range 4' } };
      return { result: [{ blockNumber: hex(from) }] };
    });
    const p = new RpcPool([{ url: n.url, weight: 1, getLogsMaxRange: 10 }], { chainId: 1, timeoutMs: 2000, maxLagBlocks: 3 });
    const reply = await p.request('eth_getLogs', [{ fromBlock: '0x0', toBlock: hex(19) }]);
    // 20 blocks: [0,9] (the provider's 10) refused, [0,4] refused, then pieces of 2.
    expect(ranges.slice(0, 2)).toEqual([
      [0, 9],
      [0, 4],
    ]);
    expect(ranges.slice(2)).toEqual(Array.from({ length: 10 }, (_, i) => [2 * i, 2 * i + 1]));
    expect('result' in reply && (reply.result as unknown[]).length).toBe(10);
    expect(p.endpoints[0].healthy()).toBe(true);
  });

  it('shows a provider only as its redacted URL, numbered when two share a host', () => {
    const p = pool(['https://rpc.example.io/v3/KEY1', 'https://rpc.example.io/v3/KEY2', 'https://other.example.io/']);
    expect(p.snapshot().map((s) => s.url)).toEqual(['https://rpc.example.io/***', 'https://rpc.example.io/***#2', 'https://other.example.io']);
    expect(JSON.stringify(p.snapshot())).not.toContain('KEY');
  });
});

async function signed(): Promise<string> {
  const wallet = Wallet.createRandom();
  return wallet.signTransaction({ to: wallet.address, nonce: 0, gasLimit: 21000, maxFeePerGas: 1n, maxPriorityFeePerGas: 1n, chainId: 1, type: 2 });
}
