/**
 * bench:relay at 1 s blocks: the chain switched to interval mining, a paced load and a burst
 * through the relay against a direct ethers client doing the same sends from its own keys.
 * Measures inclusion latency in blocks (share in the next block, p50/p99), fee paid per gas,
 * and how long after a block arrives its transactions are visible as final: EXECUTED through
 * GET /api/tx (relay) vs the client's own receipt poll (direct), both polled every 10 ms on a
 * sample, and when each relayed transaction's settlement began (`settled_at`, its statement's now()).
 */
import { JsonRpcProvider, Wallet } from 'ethers';
import { Client } from 'pg';

export interface BlocksContext {
  rpcUrl: string;
  chainId: number;
  usdc: string;
  db: Client;
  wallets: Wallet[];
  mintCall: () => string;
  /** POST /api/submit-tx; the tx id, or throws. */
  submit: (callData: string) => Promise<string>;
  /** GET /api/tx: the public status. */
  status: (txId: string) => Promise<string | undefined>;
  log: (line: string) => void;
  problems: string[];
  pacedN: number;
  pacedRate: number;
  burstN: number;
  blockSeconds: number;
}

export interface SideFigures {
  n: number;
  included: number;
  nextBlockShare: number;
  p50Blocks: number;
  p99Blocks: number;
  maxBlocks: number;
  /** Blocks from the first send to the last inclusion (burst). */
  spanBlocks: number;
  gweiPerGas: number;
  /** Block arrival (as polled every 5 ms) → final status visible to the client: p50 / p99 ms over the sample. */
  visibleP50Ms: number;
  visibleP99Ms: number;
  /** Relay only: block arrival → its settlement's database transaction began (`settled_at` is its now()), p50 / p99 ms over every transaction. */
  settledP50Ms?: number;
  settledP99Ms?: number;
  /** Relay burst only: each block it was mined in, whether the burst's intake was still running when the block arrived, and that block's p50s. */
  byBlock?: BlockFigures[];
}

export interface BlockFigures {
  block: number;
  /** Blocks after the head when the burst began (1: the next block). */
  nth: number;
  rows: number;
  intakeRunning: boolean;
  visibleP50Ms: number;
  settledP50Ms: number;
}

export interface BlocksResults {
  paced: { relay: SideFigures; direct: SideFigures };
  burst: { relay: SideFigures; direct: SideFigures };
}

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));
const now = () => Date.now();
const SAMPLE_POLL_MS = 10;
/** A burst's HTTP connections: a client firing hundreds of requests at once still opens a bounded pool. */
const BURST_CONNECTIONS = 64;

async function inPool<T>(items: T[], task: (item: T, i: number) => Promise<unknown>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      await task(items[i], i);
    }
  };
  await Promise.all(Array.from({ length: Math.min(BURST_CONNECTIONS, items.length) }, worker));
}

function percentile(xs: number[], p: number): number {
  if (xs.length === 0) return NaN;
  const sorted = [...xs].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length, Math.max(1, Math.ceil((p / 100) * sorted.length))) - 1];
}

async function rpc<T>(url: string, method: string, params: unknown[] = []): Promise<T> {
  const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }) });
  const body = (await res.json()) as { result?: T; error?: { message: string } };
  if (body.error) throw new Error(`${method}: ${body.error.message}`);
  return body.result as T;
}

/** The chain's head polled every 5 ms, with the wall time each block was first seen (its arrival). */
class HeadWatch {
  head = 0;
  readonly arrivals = new Map<number, number>();
  private running = true;
  private loop?: Promise<void>;

  constructor(private readonly url: string) {}

  async start(): Promise<void> {
    this.head = Number(await rpc<string>(this.url, 'eth_blockNumber'));
    this.arrivals.set(this.head, now());
    this.loop = (async () => {
      while (this.running) {
        const head = Number(await rpc<string>(this.url, 'eth_blockNumber').catch(() => String(this.head)));
        const at = now();
        for (let b = this.head + 1; b <= head; b++) this.arrivals.set(b, at);
        if (head > this.head) this.head = head;
        await sleep(5);
      }
    })();
  }

  async stop(): Promise<void> {
    this.running = false;
    await this.loop;
  }

  async waitBlocks(n: number): Promise<void> {
    const target = this.head + n;
    while (this.head < target) await sleep(5);
  }
}

interface Sent {
  /** The head when the send started: the next block is head + 1. */
  headAt: number;
  hash?: string;
  txId?: string;
  /** Sampled: when the client saw it final. */
  visibleAt?: number;
}

/** A direct client: its own keys, explicit nonces, fees read at most once a second (as the relay's fee cache), gas estimated once. */
class DirectClient {
  private nonces: number[] = [];
  private fees?: { at: number; maxFeePerGas: bigint; maxPriorityFeePerGas: bigint };
  private gas = 0n;
  private turn = 0;
  readonly provider: JsonRpcProvider;

  constructor(private readonly ctx: BlocksContext) {
    this.provider = new JsonRpcProvider(ctx.rpcUrl, ctx.chainId, { staticNetwork: true, batchMaxCount: 1 });
  }

  async init(): Promise<void> {
    this.nonces = await Promise.all(this.ctx.wallets.map((w) => this.provider.getTransactionCount(w.address, 'pending')));
    this.gas = ((await this.provider.estimateGas({ from: this.ctx.wallets[0].address, to: this.ctx.usdc, data: this.ctx.mintCall() })) * 12n) / 10n;
  }

  async send(callData: string): Promise<string> {
    if (!this.fees || now() - this.fees.at > 1_000) {
      const f = await this.provider.getFeeData();
      this.fees = { at: now(), maxFeePerGas: f.maxFeePerGas ?? 10n ** 10n, maxPriorityFeePerGas: f.maxPriorityFeePerGas ?? 10n ** 9n };
    }
    const w = this.turn++ % this.ctx.wallets.length;
    const nonce = this.nonces[w]++;
    const raw = await this.ctx.wallets[w].signTransaction({
      type: 2,
      chainId: this.ctx.chainId,
      nonce,
      to: this.ctx.usdc,
      data: callData,
      gasLimit: this.gas,
      maxFeePerGas: this.fees.maxFeePerGas,
      maxPriorityFeePerGas: this.fees.maxPriorityFeePerGas,
    });
    return this.provider.send('eth_sendRawTransaction', [raw]) as Promise<string>;
  }

  destroy(): void {
    this.provider.destroy();
  }
}

interface MinedInfo {
  block: number;
  gweiPerGas: number;
}

async function minedInfo(url: string, hash: string): Promise<MinedInfo | null> {
  const r = await rpc<{ blockNumber: string; effectiveGasPrice: string; status: string } | null>(url, 'eth_getTransactionReceipt', [hash]);
  if (!r || r.status !== '0x1') return null;
  return { block: Number(r.blockNumber), gweiPerGas: Number(BigInt(r.effectiveGasPrice)) / 1e9 };
}

/** Per block, what a burst's rows saw: the rows, the p50 of block → visible (sampled rows) and of block → settlement began. */
function byBlockOf(sent: Sent[], mined: Array<MinedInfo | null>, arrivals: Map<number, number>, firstHead: number, settledAt: Array<number | undefined>, intakeDoneAt: number): BlockFigures[] {
  const blocks = new Map<number, { rows: number; visible: number[]; settled: number[] }>();
  sent.forEach((s, i) => {
    const m = mined[i];
    const arrival = m ? arrivals.get(m.block) : undefined;
    if (!m || arrival === undefined) return;
    const b = blocks.get(m.block) ?? { rows: 0, visible: [], settled: [] };
    b.rows++;
    if (s.visibleAt !== undefined) b.visible.push(s.visibleAt - arrival);
    const at = settledAt[i];
    if (at !== undefined) b.settled.push(at - arrival);
    blocks.set(m.block, b);
  });
  return [...blocks]
    .sort(([a], [b]) => a - b)
    .map(([block, b]) => ({ block, nth: block - firstHead, rows: b.rows, intakeRunning: (arrivals.get(block) ?? 0) < intakeDoneAt, visibleP50Ms: percentile(b.visible, 50), settledP50Ms: percentile(b.settled, 50) }));
}

function figures(sent: Sent[], mined: Array<MinedInfo | null>, arrivals: Map<number, number>, firstHead: number, settledAt?: Array<number | undefined>, intakeDoneAt?: number): SideFigures {
  const blocks: number[] = [];
  const visible: number[] = [];
  const settled: number[] = [];
  let gwei = 0;
  let lastBlock = firstHead;
  sent.forEach((s, i) => {
    const m = mined[i];
    if (!m) return;
    blocks.push(m.block - s.headAt);
    gwei += m.gweiPerGas;
    lastBlock = Math.max(lastBlock, m.block);
    const arrival = arrivals.get(m.block);
    if (arrival !== undefined && s.visibleAt !== undefined) visible.push(s.visibleAt - arrival);
    const at = settledAt?.[i];
    if (arrival !== undefined && at !== undefined) settled.push(at - arrival);
  });
  return {
    n: sent.length,
    included: blocks.length,
    nextBlockShare: blocks.length ? blocks.filter((b) => b <= 1).length / sent.length : 0,
    p50Blocks: percentile(blocks, 50),
    p99Blocks: percentile(blocks, 99),
    maxBlocks: blocks.length ? Math.max(...blocks) : NaN,
    spanBlocks: lastBlock - firstHead,
    gweiPerGas: blocks.length ? gwei / blocks.length : NaN,
    visibleP50Ms: percentile(visible, 50),
    visibleP99Ms: percentile(visible, 99),
    ...(settledAt ? { settledP50Ms: percentile(settled, 50), settledP99Ms: percentile(settled, 99) } : {}),
    ...(settledAt && intakeDoneAt !== undefined ? { byBlock: byBlockOf(sent, mined, arrivals, firstHead, settledAt, intakeDoneAt) } : {}),
  };
}

/** Every `sampleEvery`th send is watched by the client until final, every 10 ms. */
async function watchFinal(s: Sent, check: () => Promise<boolean>, deadline: number): Promise<void> {
  while (now() < deadline) {
    if (await check().catch(() => false)) {
      s.visibleAt = now();
      return;
    }
    await sleep(SAMPLE_POLL_MS);
  }
}

async function relayOutcome(ctx: BlocksContext, sent: Sent[], deadline: number): Promise<{ mined: Array<MinedInfo | null>; settledAt: Array<number | undefined> }> {
  const ids = sent.map((s) => s.txId).filter((x): x is string => !!x);
  for (;;) {
    const res = await ctx.db.query<{ n: string }>("SELECT count(*) AS n FROM relay_transactions WHERE id = ANY($1::uuid[]) AND status = 'PENDING'", [ids]);
    if (Number(res.rows[0].n) === 0 || now() > deadline) break;
    await sleep(100);
  }
  const rows = await ctx.db.query<{ id: string; status: string; execution_tx_hash: string | null; settled_at: Date | null }>(
    'SELECT id, status, execution_tx_hash, settled_at FROM relay_transactions WHERE id = ANY($1::uuid[])',
    [ids],
  );
  const byId = new Map(rows.rows.map((r) => [r.id, r]));
  const notExecuted = rows.rows.filter((r) => r.status !== 'EXECUTED').length + (ids.length - rows.rows.length);
  if (notExecuted > 0) ctx.problems.push(`1 s blocks: ${notExecuted} of ${ids.length} relayed transactions not EXECUTED`);
  const mined = await Promise.all(sent.map((s) => (s.txId && byId.get(s.txId)?.execution_tx_hash ? minedInfo(ctx.rpcUrl, byId.get(s.txId)!.execution_tx_hash!) : null)));
  return { mined, settledAt: sent.map((s) => (s.txId ? byId.get(s.txId)?.settled_at?.getTime() : undefined)) };
}

async function directOutcome(ctx: BlocksContext, sent: Sent[], deadline: number): Promise<Array<MinedInfo | null>> {
  const out: Array<MinedInfo | null> = [];
  for (const s of sent) {
    let m: MinedInfo | null = null;
    while (s.hash && !m && now() < deadline) {
      m = await minedInfo(ctx.rpcUrl, s.hash);
      if (!m) await sleep(100);
    }
    out.push(m);
  }
  const missing = out.filter((m) => !m).length;
  if (missing > 0) ctx.problems.push(`1 s blocks: ${missing} of ${sent.length} direct transactions not mined`);
  return out;
}

export async function phaseBlocks(ctx: BlocksContext): Promise<BlocksResults> {
  await rpc(ctx.rpcUrl, 'evm_setAutomine', [false]);
  await rpc(ctx.rpcUrl, 'evm_setIntervalMining', [ctx.blockSeconds]);
  const heads = new HeadWatch(ctx.rpcUrl);
  const direct = new DirectClient(ctx);
  try {
    await heads.start();
    await direct.init();
    await heads.waitBlocks(2);
    // One in 20 is watched every 10 ms: more pollers would load the app (same process) more than the relay itself.
    const sampleEvery = 20;

    // Paced: relay and direct side by side, one send each every 1/rate s, so both see the same blocks.
    ctx.log(`phase 4: ${ctx.blockSeconds} s blocks, paced: ${ctx.pacedN} relayed and ${ctx.pacedN} direct at ${ctx.pacedRate}/s each`);
    const pacedRelay: Sent[] = [];
    const pacedDirect: Sent[] = [];
    const watchers: Promise<void>[] = [];
    const pacedStart = now();
    const watchDeadline = () => now() + 30_000;
    for (let i = 0; i < ctx.pacedN; i++) {
      const due = pacedStart + (i * 1000) / ctx.pacedRate;
      if (due > now()) await sleep(due - now());
      const r: Sent = { headAt: heads.head };
      const d: Sent = { headAt: heads.head };
      pacedRelay.push(r);
      pacedDirect.push(d);
      const sampled = i % sampleEvery === 0;
      watchers.push(
        ctx.submit(ctx.mintCall()).then(
          (id) => {
            r.txId = id;
            if (sampled) return watchFinal(r, async () => (await ctx.status(id)) === 'EXECUTED', watchDeadline());
          },
          (err: Error) => void ctx.problems.push(`1 s blocks paced relay: ${err.message}`),
        ),
        direct.send(ctx.mintCall()).then(
          (hash) => {
            d.hash = hash;
            if (sampled) return watchFinal(d, async () => (await direct.provider.send('eth_getTransactionReceipt', [hash])) !== null, watchDeadline());
          },
          (err: Error) => void ctx.problems.push(`1 s blocks paced direct: ${err.message.split('\n')[0]}`),
        ),
      );
    }
    await Promise.all(watchers);
    const pacedDeadline = now() + 30_000;
    const pacedRelayOut = await relayOutcome(ctx, pacedRelay, pacedDeadline);
    const paced = {
      relay: figures(pacedRelay, pacedRelayOut.mined, heads.arrivals, pacedRelay[0]?.headAt ?? 0, pacedRelayOut.settledAt),
      direct: figures(pacedDirect, await directOutcome(ctx, pacedDirect, pacedDeadline), heads.arrivals, pacedDirect[0]?.headAt ?? 0),
    };

    // Burst: all at once, the relay first, then the direct client once the chain is quiet again.
    await heads.waitBlocks(2);
    ctx.log(`phase 4: burst of ${ctx.burstN} through the relay (all at once, ${BURST_CONNECTIONS} connections)`);
    const burstRelay: Sent[] = Array.from({ length: ctx.burstN }, () => ({ headAt: heads.head }));
    const relayWatch: Promise<void>[] = [];
    await inPool(
      burstRelay,
      (r, i) =>
        ctx.submit(ctx.mintCall()).then(
          (id) => {
            r.txId = id;
            if (i % sampleEvery === 0) relayWatch.push(watchFinal(r, async () => (await ctx.status(id)) === 'EXECUTED', watchDeadline()));
          },
          (err: Error) => void ctx.problems.push(`1 s blocks burst relay: ${err.message}`),
        ),
    );
    // Every submission of the burst answered: a block arriving before this shared the cores with the intake.
    const burstIntakeDoneAt = now();
    await Promise.all(relayWatch);
    const burstRelayOut = await relayOutcome(ctx, burstRelay, now() + 60_000);
    await heads.waitBlocks(2);
    ctx.log(`phase 4: burst of ${ctx.burstN} direct (all sent at once)`);
    const burstDirect: Sent[] = Array.from({ length: ctx.burstN }, () => ({ headAt: heads.head }));
    const directWatch: Promise<void>[] = [];
    await Promise.all(
      burstDirect.map((d, i) =>
        direct.send(ctx.mintCall()).then(
          (hash) => {
            d.hash = hash;
            if (i % sampleEvery === 0) directWatch.push(watchFinal(d, async () => (await direct.provider.send('eth_getTransactionReceipt', [hash])) !== null, watchDeadline()));
          },
          (err: Error) => void ctx.problems.push(`1 s blocks burst direct: ${err.message.split('\n')[0]}`),
        ),
      ),
    );
    await Promise.all(directWatch);
    const burst = {
      relay: figures(burstRelay, burstRelayOut.mined, heads.arrivals, burstRelay[0]?.headAt ?? 0, burstRelayOut.settledAt, burstIntakeDoneAt),
      direct: figures(burstDirect, await directOutcome(ctx, burstDirect, now() + 60_000), heads.arrivals, burstDirect[0]?.headAt ?? 0),
    };
    return { paced, burst };
  } finally {
    await heads.stop();
    direct.destroy();
    await rpc(ctx.rpcUrl, 'evm_setIntervalMining', [0]).catch(() => undefined);
    await rpc(ctx.rpcUrl, 'evm_setAutomine', [true]).catch(() => undefined);
  }
}

/** Report rows: [metric, relay, direct]. */
export function blocksRows(r: BlocksResults, blockSeconds: number): Array<[string, string, string]> {
  const f = (x: number | undefined, d = 0) => (x === undefined || !Number.isFinite(x) ? 'n/a' : x.toFixed(d));
  const pct = (x: number) => `${(x * 100).toFixed(1)}%`;
  const rows: Array<[string, string, string]> = [];
  for (const [name, side] of [['paced', r.paced], ['burst', r.burst]] as const) {
    const { relay, direct } = side;
    rows.push([`${blockSeconds} s blocks ${name} (N=${relay.n}): in the next block`, `${pct(relay.nextBlockShare)} (${Math.round(relay.nextBlockShare * relay.n)})`, `${pct(direct.nextBlockShare)} (${Math.round(direct.nextBlockShare * direct.n)})`]);
    rows.push([`${blockSeconds} s blocks ${name}: blocks to inclusion p50 / p99 / max`, `${f(relay.p50Blocks)} / ${f(relay.p99Blocks)} / ${f(relay.maxBlocks)}`, `${f(direct.p50Blocks)} / ${f(direct.p99Blocks)} / ${f(direct.maxBlocks)}`]);
    if (name === 'burst') rows.push([`${blockSeconds} s blocks burst: blocks until the last one is mined`, f(relay.spanBlocks), f(direct.spanBlocks)]);
    rows.push([`${blockSeconds} s blocks ${name}: fee paid per gas (gwei)`, f(relay.gweiPerGas, 4), f(direct.gweiPerGas, 4)]);
    rows.push([`${blockSeconds} s blocks ${name}: block → final visible p50 / p99 (ms)`, `${f(relay.visibleP50Ms)} / ${f(relay.visibleP99Ms)} (API)`, `${f(direct.visibleP50Ms)} / ${f(direct.visibleP99Ms)} (receipt poll)`]);
    rows.push([`${blockSeconds} s blocks ${name}: block → settlement began p50 / p99 (ms)`, `${f(relay.settledP50Ms)} / ${f(relay.settledP99Ms)}`, '']);
    for (const b of relay.byBlock ?? []) {
      rows.push([`${blockSeconds} s blocks ${name}, block ${b.nth}: ${b.rows} rows, intake ${b.intakeRunning ? 'running' : 'done'}`, `visible ${f(b.visibleP50Ms)} / settlement began ${f(b.settledP50Ms)} ms (p50)`, '']);
    }
  }
  return rows;
}
