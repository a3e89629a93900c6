/**
 * An in-process JSON-RPC proxy in front of one node (anvil), giving the app the conditions of a
 * real provider while the test talks to the node directly:
 *
 * - `lagMs`: reads are served as of the head the proxy saw `lagMs` ago (a load-balanced provider
 *   whose read nodes trail its write node). `eth_blockNumber`, `latest`/`pending` tags of
 *   nonce, balance, call, estimate and block reads are pinned to that lagged head; receipts,
 *   block receipts and blocks above it are hidden, and a transaction mined above it reads as
 *   pending. Writes (`eth_sendRawTransaction`) reach the node at once.
 * - `errorShare` / `dropShare` / `stallShare` + `stallMs`: a share of calls answered with a
 *   JSON-RPC error, dropped (socket destroyed; a dropped send is forwarded first, so the node
 *   may have it: the "timeout, unknown outcome" case), or delayed. Draws come from a seeded PRNG
 *   (`seed`), so a run repeats.
 * - `pendingCap`: a sender's raw transaction whose nonce is `pendingCap` or more above its
 *   mined nonce is refused with `pendingCapMessage` (geth's "txpool is full" by default).
 * - `refuseUnderBaseFee`: a transaction whose max fee is under the next block's base fee is
 *   refused with geth's "max fee per gas less than block base fee" message.
 *
 * - `dead`: every connection is cut before an answer (a provider that is down).
 * - `rateLimitRps` (+ `retryAfterSeconds`): above that many calls in the last second, HTTP 429
 *   with a Retry-After header and no forwarding (a hosted provider's rate limit).
 * - `flap`: fails every call with HTTP 503 during `downMs` of each `periodMs`, starting
 *   `phaseMs` into the period (two proxies with phases 0 and downMs fail in turn).
 *
 * Every option can be changed while running (`proxy.set({...})`); `stats` counts what was done.
 * Batches are answered element by element with the same rules. Only `eth_*`/`net_*`/`web3_*`
 * calls go through the fault rules; anything else is forwarded untouched.
 */
import { createServer, IncomingMessage, Server, ServerResponse } from 'node:http';
import { AddressInfo } from 'node:net';
import { Transaction } from 'ethers';

export interface ProxyOptions {
  lagMs: number;
  errorShare: number;
  dropShare: number;
  stallShare: number;
  stallMs: number;
  pendingCap: number | null;
  pendingCapMessage: string;
  refuseUnderBaseFee: boolean;
  seed: number;
  /** eth_getLogs over more blocks than this is refused as a provider's range limit would (null: no limit). */
  maxLogRange: number | null;
  dead: boolean;
  rateLimitRps: number | null;
  retryAfterSeconds: number;
  flap: { periodMs: number; downMs: number; phaseMs: number } | null;
}

export interface ProxyStats {
  calls: number;
  errored: number;
  dropped: number;
  stalled: number;
  refusedPendingCap: number;
  refusedUnderBaseFee: number;
  hiddenReceipts: number;
  sends: number;
  /** Calls per JSON-RPC method. */
  methods: Record<string, number>;
  /** Every eth_getLogs range asked for, refused ones included. */
  getLogs: Array<{ fromBlock: number; toBlock: number; refused: boolean; topic0: unknown }>;
  /** Connections cut while dead. */
  cut: number;
  /** Requests answered 429 by the rate limit. */
  rateLimited: number;
  /** Requests failed by the flapping schedule. */
  flapped: number;
  /** Requests that were JSON-RPC batches (an array of calls). */
  batches: number;
}

export interface RpcProxy {
  url: string;
  stats: ProxyStats;
  set(options: Partial<ProxyOptions>): void;
  close(): Promise<void>;
}

interface RpcRequest {
  jsonrpc: '2.0';
  id: unknown;
  method: string;
  params?: unknown[];
}

type RpcResponse = { jsonrpc: '2.0'; id: unknown; result?: unknown; error?: { code: number; message: string } };

const DEFAULTS: ProxyOptions = {
  lagMs: 0,
  errorShare: 0,
  dropShare: 0,
  stallShare: 0,
  stallMs: 0,
  pendingCap: null,
  pendingCapMessage: 'txpool is full',
  refuseUnderBaseFee: false,
  seed: 1,
  maxLogRange: null,
  dead: false,
  rateLimitRps: null,
  retryAfterSeconds: 1,
  flap: null,
};

/** Methods whose block tag (at `index`) is pinned to the lagged head when it is latest/pending. */
const TAGGED: Record<string, number> = {
  eth_getTransactionCount: 1,
  eth_getBalance: 1,
  eth_call: 1,
  eth_estimateGas: 1,
  eth_getCode: 1,
  eth_getStorageAt: 2,
  eth_getBlockByNumber: 0,
};

/** mulberry32: small, fast, and the same sequence for the same seed. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

class Dropped extends Error {}

export async function startRpcProxy(upstream: string, port: number, options: Partial<ProxyOptions> = {}): Promise<RpcProxy> {
  let opts: ProxyOptions = { ...DEFAULTS, ...options };
  let random = seededRandom(opts.seed);
  const stats: ProxyStats = { calls: 0, errored: 0, dropped: 0, stalled: 0, refusedPendingCap: 0, refusedUnderBaseFee: 0, hiddenReceipts: 0, sends: 0, methods: {}, getLogs: [], cut: 0, rateLimited: 0, flapped: 0, batches: 0 };
  const startedAt = Date.now();
  /** Arrival times of the last second's requests (the rate limit's window). */
  const recent: number[] = [];
  /** Heads in the order first seen, with when: the lagged head is the newest seen `lagMs` ago. */
  const heads: Array<{ block: number; at: number }> = [];
  let polling = true;

  const forward = async (body: unknown): Promise<unknown> => {
    const res = await fetch(upstream, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    return res.json();
  };
  const call = async (method: string, params: unknown[]): Promise<unknown> => {
    const answer = (await forward({ jsonrpc: '2.0', id: 1, method, params })) as RpcResponse;
    if (answer.error) throw Object.assign(new Error(answer.error.message), { code: answer.error.code });
    return answer.result;
  };

  const noteHead = (block: number) => {
    if (heads.length === 0 || block > heads[heads.length - 1].block) heads.push({ block, at: Date.now() });
    while (heads.length > 2 && heads[1].at < Date.now() - 120_000) heads.shift();
    // A reorg to a lower head: forget the heads above it.
    while (heads.length > 1 && heads[heads.length - 1].block > block) heads.pop();
  };
  const poll = async () => {
    while (polling) {
      try {
        noteHead(Number(BigInt((await call('eth_blockNumber', [])) as string)));
      } catch {
        // the node is restarting or gone; the next poll tries again
      }
      await new Promise((r) => setTimeout(r, 50));
    }
  };
  noteHead(Number(BigInt((await call('eth_blockNumber', [])) as string)));
  void poll();

  const laggedHead = (): number => {
    if (opts.lagMs <= 0) return heads[heads.length - 1].block;
    const cutoff = Date.now() - opts.lagMs;
    let head = heads[0].block;
    for (const h of heads) if (h.at <= cutoff) head = h.block;
    return head;
  };

  const errorOf = (id: unknown, message: string, code = -32000): RpcResponse => ({ jsonrpc: '2.0', id, error: { code, message } });

  const handleSend = async (req: RpcRequest): Promise<RpcResponse | null> => {
    const raw = String(req.params?.[0] ?? '');
    let tx: Transaction;
    try {
      tx = Transaction.from(raw);
    } catch {
      return null;
    }
    const from = tx.from;
    if (opts.pendingCap !== null && from) {
      const mined = Number(BigInt((await call('eth_getTransactionCount', [from, 'latest'])) as string));
      if (tx.nonce - mined >= opts.pendingCap) {
        stats.refusedPendingCap++;
        return errorOf(req.id, opts.pendingCapMessage);
      }
    }
    if (opts.refuseUnderBaseFee && tx.maxFeePerGas !== null) {
      const block = (await call('eth_getBlockByNumber', ['latest', false])) as { baseFeePerGas?: string } | null;
      const next = await call('eth_feeHistory', ['0x1', 'latest', []]).catch(() => null);
      const nextBase = (next as { baseFeePerGas?: string[] } | null)?.baseFeePerGas?.at(-1);
      const base = BigInt(nextBase ?? block?.baseFeePerGas ?? '0x0');
      if (tx.maxFeePerGas < base) {
        stats.refusedUnderBaseFee++;
        return errorOf(req.id, `max fee per gas less than block base fee: address ${from}, maxFeePerGas: ${tx.maxFeePerGas}, baseFee: ${base}`);
      }
    }
    return null;
  };

  const handleOne = async (req: RpcRequest): Promise<RpcResponse> => {
    stats.calls++;
    stats.methods[req.method] = (stats.methods[req.method] ?? 0) + 1;
    if (req.method === 'eth_getLogs') {
      const filter = (req.params?.[0] ?? {}) as { fromBlock?: string; toBlock?: string; topics?: unknown[] };
      const num = (tag: string | undefined) => (tag && tag.startsWith('0x') ? Number(BigInt(tag)) : heads[heads.length - 1].block);
      const range = { fromBlock: num(filter.fromBlock), toBlock: num(filter.toBlock) };
      const refused = opts.maxLogRange !== null && range.toBlock - range.fromBlock + 1 > opts.maxLogRange;
      stats.getLogs.push({ ...range, refused, topic0: filter.topics?.[0] ?? null });
      if (refused) return errorOf(req.id, `query exceeds max block range ${opts.maxLogRange}`, -32005);
    }
    const faulty = /^(eth|net|web3)_/.test(req.method);
    if (faulty) {
      if (opts.stallShare > 0 && random() < opts.stallShare) {
        stats.stalled++;
        await new Promise((r) => setTimeout(r, opts.stallMs));
      }
      if (opts.errorShare > 0 && random() < opts.errorShare) {
        stats.errored++;
        return errorOf(req.id, 'internal error: upstream request failed', -32603);
      }
      if (opts.dropShare > 0 && random() < opts.dropShare) {
        stats.dropped++;
        // A dropped send may still have reached the node: forward it, lose the answer.
        if (req.method === 'eth_sendRawTransaction') await forward(req).catch(() => undefined);
        throw new Dropped();
      }
    }
    if (req.method === 'eth_sendRawTransaction') {
      stats.sends++;
      const refusal = await handleSend(req);
      if (refusal) return refusal;
      return (await forward(req)) as RpcResponse;
    }
    if (opts.lagMs <= 0) return (await forward(req)) as RpcResponse;
    return lagged(req);
  };

  const lagged = async (req: RpcRequest): Promise<RpcResponse> => {
    const head = laggedHead();
    const params = [...(req.params ?? [])];
    const hexHead = `0x${head.toString(16)}`;
    if (req.method === 'eth_blockNumber') return { jsonrpc: '2.0', id: req.id, result: hexHead };
    const at = TAGGED[req.method];
    if (at !== undefined) {
      const tag = params[at];
      if (tag === undefined || tag === 'latest' || tag === 'pending' || tag === 'safe' || tag === 'finalized') params[at] = hexHead;
      else if (typeof tag === 'string' && tag.startsWith('0x') && Number(BigInt(tag)) > head) {
        if (req.method === 'eth_getBlockByNumber') return { jsonrpc: '2.0', id: req.id, result: null };
        return errorOf(req.id, `header not found`);
      }
    }
    if (req.method === 'eth_getBlockReceipts') {
      const tag = params[0];
      if (tag === 'latest' || tag === 'pending') params[0] = hexHead;
      else if (typeof tag === 'string' && tag.startsWith('0x') && Number(BigInt(tag)) > head) return { jsonrpc: '2.0', id: req.id, result: null };
    }
    const answer = (await forward({ ...req, params })) as RpcResponse;
    const result = answer.result as { blockNumber?: string | null } | null | undefined;
    if (req.method === 'eth_getTransactionReceipt' && result?.blockNumber && Number(BigInt(result.blockNumber)) > head) {
      stats.hiddenReceipts++;
      return { jsonrpc: '2.0', id: req.id, result: null };
    }
    if (req.method === 'eth_getTransactionByHash' && result?.blockNumber && Number(BigInt(result.blockNumber)) > head) {
      return { jsonrpc: '2.0', id: req.id, result: { ...result, blockNumber: null, blockHash: null, transactionIndex: null } };
    }
    return answer;
  };

  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    if (opts.dead) {
      stats.cut++;
      req.socket.destroy();
      return;
    }
    if (opts.flap) {
      const at = (Date.now() - startedAt - opts.flap.phaseMs + opts.flap.periodMs * 1000) % opts.flap.periodMs;
      if (at < opts.flap.downMs) {
        stats.flapped++;
        req.resume();
        res.writeHead(503, { 'content-type': 'text/plain' }).end('service unavailable');
        return;
      }
    }
    if (opts.rateLimitRps !== null) {
      const now = Date.now();
      while (recent.length > 0 && recent[0] <= now - 1000) recent.shift();
      if (recent.length >= opts.rateLimitRps) {
        stats.rateLimited++;
        req.resume();
        res.writeHead(429, { 'content-type': 'application/json', 'retry-after': String(opts.retryAfterSeconds) }).end(JSON.stringify({ jsonrpc: '2.0', id: null, error: { code: -32005, message: 'rate limit exceeded' } }));
        return;
      }
      recent.push(now);
    }
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      void (async () => {
        let body: RpcRequest | RpcRequest[];
        try {
          body = JSON.parse(Buffer.concat(chunks).toString()) as RpcRequest | RpcRequest[];
        } catch {
          res.writeHead(400).end();
          return;
        }
        if (Array.isArray(body)) stats.batches++;
        try {
          const answer = Array.isArray(body) ? await Promise.all(body.map(handleOne)) : await handleOne(body);
          res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(answer));
        } catch (err) {
          if (err instanceof Dropped) res.socket?.destroy();
          else res.writeHead(502).end(String((err as Error).message));
        }
      })();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve());
  });
  const address = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${address.port}`,
    stats,
    set(changes) {
      opts = { ...opts, ...changes };
      if (changes.seed !== undefined) random = seededRandom(changes.seed);
    },
    async close() {
      polling = false;
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
