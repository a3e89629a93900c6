import { Logger } from '@nestjs/common';
import { keccak256 } from '../../../../common/evm/keccak';
import { classifyNodeAnswer, NodeAnswer, TxOutcome } from '../../../../common/evm/node-answer';
import { redactUrl } from '../../../../common/evm/provider-url';
import { RpcUnavailableError } from '../../../../common/evm/rpc-unavailable';
import { RpcEndpointDef } from '../rpc-endpoints';
import { tracedChild } from '../../../../common/trace/tracing';
import { TransportFailure } from './http-transport';
import type { RpcErrorBody, RpcReply } from './json-rpc';
import { RpcEndpoint } from './rpc-endpoint';

type Attempt = { kind: 'reply'; reply: RpcReply; answer?: NodeAnswer } | { kind: 'failed'; reason: string };

export interface RpcPoolOptions {
  chainId: number;
  /** Budget of one call, retries on other providers included (RPC_TIMEOUT_MS). */
  timeoutMs: number;
  /** A provider further than this behind the best head serves no fate-deciding read (RPC_MAX_LAG_BLOCKS). */
  maxLagBlocks: number;
  /** The chain's own getLogsMaxRange (a provider's own overrides it); default 2000. */
  getLogsMaxRange?: number;
  observe?: (provider: string, method: string, outcome: RpcOutcome, seconds: number) => void;
  onHealth?: (provider: string, healthy: boolean) => void;
}

/** Per-call outcome in chain_rpc_requests_total: an answer (ok or the node's error about the call) or a provider failure. */
export type RpcOutcome = 'ok' | 'node_error' | 'rate_limited' | 'failed';

export interface ProviderHealth {
  /** Redacted: scheme, host and port. */
  url: string;
  healthy: boolean;
  headBlock: number | null;
  lagBlocks: number | null;
  latencyMsP50: number | null;
  errorRate: number;
  backedOffUntil: string | null;
}

/**
 * Reads that decide a transaction's fate (receipts, nonces, blocks for finality): served only by
 * providers within maxLagBlocks of the best head, so a lagging provider's "no receipt" or old
 * nonce never reaches the pipeline as evidence.
 */
const FATE_METHODS = new Set(['eth_getTransactionReceipt', 'eth_getTransactionCount', 'eth_getTransactionByHash', 'eth_getBlockByNumber', 'eth_getBlockByHash', 'eth_getBlockReceipts']);
/**
 * Reads whose empty answer (null: no receipt, no such transaction or block) is only evidence from
 * a provider at the best head: from one behind it, the transaction or block may simply not have
 * reached it yet.
 */
const NULL_NEEDS_HEAD = new Set(['eth_getTransactionReceipt', 'eth_getTransactionByHash', 'eth_getBlockByNumber', 'eth_getBlockReceipts']);
/** Answers that are the same from any provider and never change a chain: safe to ask again elsewhere. */
const NOT_IDEMPOTENT = new Set(['eth_sendRawTransaction', 'eth_sendTransaction']);

const DEFAULT_GET_LOGS_MAX_RANGE = 2_000;
const ACCEPTED_MEMORY = 10_000;

/** Best first when two providers refuse a broadcast differently (no provider took it). */
const REFUSAL_ORDER: TxOutcome[] = ['known', 'nonce-used', 'replacement-underpriced', 'under-base-fee', 'busy', 'unfunded', 'rejected'];

/**
 * The providers of one chain (docs/spec/extensions.md, "RPC providers"): every call of the
 * service to the chain goes through here. Reads go to a healthy provider (weighted, faster and
 * less failing first) and are retried on another within the call's budget when one fails;
 * broadcasts go to every available provider; fate reads skip lagging ones. See
 * docs/decisions.md, "Many RPC providers per chain".
 */
export class RpcPool {
  readonly endpoints: RpcEndpoint[];
  private readonly logger = new Logger(RpcPool.name);
  /** Transaction hash → the provider that took it first: asked first for its receipt. */
  private readonly acceptedBy = new Map<string, RpcEndpoint>();

  constructor(
    defs: RpcEndpointDef[],
    private readonly opts: RpcPoolOptions,
    private readonly random: () => number = Math.random,
  ) {
    const labels = new Map<string, number>();
    this.endpoints = defs.map((def) => {
      const base = redactUrl(def.url);
      const n = (labels.get(base) ?? 0) + 1;
      labels.set(base, n);
      // Two keys of one host redact alike: number them so metrics and /health tell them apart.
      return new RpcEndpoint(def, n === 1 ? base : `${base}#${n}`);
    });
  }

  /** The highest head any provider reported. */
  bestHead(): number | null {
    let best: number | null = null;
    for (const e of this.endpoints) if (e.headBlock !== null && (best === null || e.headBlock > best)) best = e.headBlock;
    return best;
  }

  lagOf(e: RpcEndpoint): number | null {
    const best = this.bestHead();
    return best === null || e.headBlock === null ? null : best - e.headBlock;
  }

  anyHealthy(): boolean {
    return this.endpoints.some((e) => e.healthy());
  }

  snapshot(): ProviderHealth[] {
    return this.endpoints.map((e) => ({
      url: e.label,
      healthy: e.healthy(),
      headBlock: e.headBlock,
      lagBlocks: this.lagOf(e),
      latencyMsP50: e.latencyP50(),
      errorRate: Math.round(e.errorRate() * 1000) / 1000,
      backedOffUntil: e.backedOffUntil > Date.now() ? new Date(e.backedOffUntil).toISOString() : null,
    }));
  }

  /** One JSON-RPC call through the pool: the node's answer (result or error), or RpcUnavailableError. */
  async request(method: string, params: unknown[]): Promise<RpcReply> {
    if (method === 'eth_sendRawTransaction') return this.broadcast(String(params[0]));
    if (method === 'eth_getLogs') return this.getLogs(params);
    return this.read(method, params);
  }

  /**
   * Sends the same signed bytes to every available provider (no second execution is possible:
   * one nonce, one signature). Sent as soon as one accepts; if none does, the most telling
   * refusal (a node's word about the transaction beats a provider's failure).
   */
  async broadcast(raw: string): Promise<RpcReply> {
    const available = this.endpoints.filter((e) => e.available());
    const targets = available.length > 0 ? available : this.lastResort();
    if (targets.length === 0) throw this.unavailable('eth_sendRawTransaction', []);
    let hash: string;
    try {
      hash = keccak256(raw);
    } catch {
      return { error: { code: -32602, message: 'invalid raw transaction' } };
    }
    const refusals: Array<{ outcome: TxOutcome; error: RpcErrorBody }> = [];
    const failures: string[] = [];
    let otherError: RpcErrorBody | null = null;
    return new Promise<RpcReply>((resolve, reject) => {
      let pending = targets.length;
      let done = false;
      const settle = () => {
        if (--pending > 0 || done) return;
        done = true;
        refusals.sort((a, b) => REFUSAL_ORDER.indexOf(a.outcome) - REFUSAL_ORDER.indexOf(b.outcome));
        if (refusals.length > 0) resolve({ error: refusals[0].error });
        else if (otherError) resolve({ error: otherError });
        else reject(this.unavailable('eth_sendRawTransaction', failures));
      };
      for (const e of targets) {
        void this.attempt(e, 'eth_sendRawTransaction', [raw], this.opts.timeoutMs).then((r) => {
          if (r.kind === 'reply' && 'result' in r.reply) {
            this.remember(hash, e);
            if (!done) {
              done = true;
              resolve({ result: r.reply.result ?? hash });
            }
          } else if (r.kind === 'reply' && 'error' in r.reply) {
            const answer = r.answer as NodeAnswer;
            if (answer.kind === 'transaction' && answer.outcome === 'known') {
              this.remember(hash, e);
              if (!done) {
                done = true;
                resolve({ result: hash });
              }
            } else if (answer.kind === 'transaction') refusals.push({ outcome: answer.outcome, error: r.reply.error });
            else otherError = r.reply.error;
          } else if (r.kind === 'failed') failures.push(r.reason);
          settle();
        });
      }
    });
  }

  /** A read, tried on providers in preference order until one answers or the budget is spent. */
  async read(method: string, params: unknown[]): Promise<RpcReply> {
    const deadline = Date.now() + this.opts.timeoutMs;
    let order = this.order(method, params);
    if (order.length === 0 && !this.endpoints.some((e) => e.available())) order = this.lastResort();
    if (order.length === 0) throw this.unavailable(method, FATE_METHODS.has(method) && this.endpoints.some((e) => e.available()) ? ['no provider within the lag limit'] : []);
    const failures: string[] = [];
    let lastError: RpcErrorBody | null = null;
    let staleNull = false;
    for (let i = 0; i < order.length; i++) {
      const e = order[i];
      const remaining = deadline - Date.now();
      if (remaining < 20) break;
      const left = order.length - i;
      // Half the budget to this provider when others remain, so a stalled one leaves time for the next.
      const budget = left > 1 ? remaining / 2 : remaining;
      if (left > 1 && e.paceDelay() > budget / 2) continue;
      const r = await this.attempt(e, method, params, budget);
      if (r.kind === 'reply') {
        if ('result' in r.reply && r.reply.result === null && NULL_NEEDS_HEAD.has(method) && (this.lagOf(e) ?? 0) > 0) {
          // "Not there" from a provider behind the head is no evidence: ask one at the head.
          staleNull = true;
          continue;
        }
        if ('result' in r.reply) return r.reply;
        if (r.answer?.kind === 'limited' || r.answer?.kind === 'fault') {
          lastError = r.reply.error;
          failures.push(`${r.answer.kind}: ${r.reply.error.code}`);
          continue;
        }
        return r.reply;
      }
      failures.push(r.reason);
      if (NOT_IDEMPOTENT.has(method)) break;
    }
    if (lastError) return { error: lastError };
    if (staleNull) failures.push('only providers behind the head answered (no evidence)');
    throw this.unavailable(method, failures);
  }

  /**
   * eth_getLogs over numbered ranges wider than the providers take is read in consecutive
   * pieces; a piece refused as too large or too full is halved and read again.
   */
  private async getLogs(params: unknown[]): Promise<RpcReply> {
    const filter = (params[0] ?? {}) as { fromBlock?: unknown; toBlock?: unknown; blockHash?: unknown };
    const from = quantity(filter.fromBlock);
    const to = quantity(filter.toBlock);
    if (filter.blockHash !== undefined || from === null || to === null || to < from) return this.read('eth_getLogs', params);
    let span = this.maxLogRange();
    const logs: unknown[] = [];
    let start = from;
    while (start <= to) {
      const end = Math.min(to, start + span - 1);
      const reply = await this.read('eth_getLogs', [{ ...filter, fromBlock: hex(start), toBlock: hex(end) }]);
      if ('error' in reply) {
        if (end > start && classifyNodeAnswer(reply.error.code, reply.error.message).kind === 'range') {
          span = Math.max(1, Math.floor((end - start + 1) / 2));
          continue;
        }
        return reply;
      }
      if (Array.isArray(reply.result)) logs.push(...(reply.result as unknown[]));
      start = end + 1;
    }
    return { result: logs };
  }

  private maxLogRange(): number {
    const own = this.endpoints.map((e) => e.def.getLogsMaxRange).filter((n): n is number => n !== undefined);
    return Math.max(1, Math.min(this.opts.getLogsMaxRange ?? DEFAULT_GET_LOGS_MAX_RANGE, ...own));
  }

  /**
   * Providers to try, best first: the one that took the transaction (for its receipt), then the
   * healthy ones by weighted draw (weight over latency and error rate), then half-open ones on
   * trial; lagging ones last, and for fate reads not at all.
   */
  private order(method: string, params: unknown[]): RpcEndpoint[] {
    const now = Date.now();
    const fate = FATE_METHODS.has(method);
    const best = this.bestHead();
    const fresh = (e: RpcEndpoint) => best === null || (e.headBlock !== null && best - e.headBlock <= this.opts.maxLagBlocks);
    const usable = this.endpoints.filter((e) => e.available(now) && (!fate || fresh(e)));
    const healthy = this.weighted(usable.filter((e) => e.healthy(now) && fresh(e)));
    const trial = usable.filter((e) => !e.healthy(now) && fresh(e));
    const lagging = this.weighted(usable.filter((e) => !fresh(e)));
    // Fate reads: the highest head first, so a receipt and a nonce read one after the other come from the same view where possible.
    const byHead = (list: RpcEndpoint[]) => (fate ? [...list].sort((a, b) => (b.headBlock ?? -1) - (a.headBlock ?? -1)) : list);
    const order = [...byHead(healthy), ...byHead(trial), ...lagging];
    const hash = typeof params[0] === 'string' && (method === 'eth_getTransactionReceipt' || method === 'eth_getTransactionByHash') ? params[0].toLowerCase() : null;
    const preferred = hash ? this.acceptedBy.get(hash) : undefined;
    if (preferred && order.includes(preferred) && (this.lagOf(preferred) ?? 0) === 0) return [preferred, ...order.filter((e) => e !== preferred)];
    return order;
  }

  private weighted(list: RpcEndpoint[]): RpcEndpoint[] {
    const pool = list.map((e) => ({ e, w: e.def.weight / (1 + 4 * e.errorRate()) / (1 + (e.latencyP50() ?? 0) / 250) }));
    const out: RpcEndpoint[] = [];
    while (pool.length > 0) {
      const total = pool.reduce((s, p) => s + p.w, 0);
      let draw = this.random() * total;
      let i = 0;
      while (i < pool.length - 1 && draw >= pool[i].w) draw -= pool[i++].w;
      out.push(pool.splice(i, 1)[0].e);
    }
    return out;
  }

  /** One call to one provider, its health and metrics updated from how it went; a span `rpc <method>` when traced (provider by its redacted label). */
  private attempt(e: RpcEndpoint, method: string, params: unknown[], timeoutMs: number): Promise<Attempt> {
    return tracedChild(
      `rpc ${method}`,
      { 'rpc.system': 'jsonrpc', 'rpc.method': method, 'server.address': e.label, 'relay.chain_id': this.opts.chainId },
      () => this.attemptOnce(e, method, params, timeoutMs),
      (a): Record<string, string> => (a.kind === 'failed' ? { 'rpc.outcome': 'failed', 'rpc.failure': a.reason } : { 'rpc.outcome': 'result' in a.reply ? 'ok' : 'node_error' }),
    );
  }

  private async attemptOnce(e: RpcEndpoint, method: string, params: unknown[], timeoutMs: number): Promise<Attempt> {
    const started = performance.now();
    const seconds = () => (performance.now() - started) / 1000;
    try {
      const reply = await e.call(method, params, timeoutMs);
      if ('result' in reply) {
        this.succeeded(e, seconds() * 1000);
        if (method === 'eth_blockNumber' && typeof reply.result === 'string') e.noteHead(Number(BigInt(reply.result)));
        this.opts.observe?.(e.label, method, 'ok', seconds());
        return { kind: 'reply', reply };
      }
      const answer = classifyNodeAnswer(reply.error.code, reply.error.message);
      if (answer.kind === 'limited' || answer.kind === 'fault') {
        this.failed(e, answer.kind === 'limited' ? `rpc ${reply.error.code} (rate limited)` : `rpc ${reply.error.code}`, null);
        this.opts.observe?.(e.label, method, answer.kind === 'limited' ? 'rate_limited' : 'failed', seconds());
      } else {
        // The node answered about the call or the transaction: the provider works.
        this.succeeded(e, seconds() * 1000);
        this.opts.observe?.(e.label, method, 'node_error', seconds());
      }
      return { kind: 'reply', reply, answer };
    } catch (err) {
      const failure = err instanceof TransportFailure ? err : new TransportFailure('provider error');
      // The failure itself goes along: the calls of one failed batch share it, and it counts once.
      this.failed(e, failure.reason, failure.retryAfterMs, failure);
      this.opts.observe?.(e.label, method, failure.reason === 'http 429' ? 'rate_limited' : 'failed', seconds());
      return { kind: 'failed', reason: failure.reason };
    }
  }

  private succeeded(e: RpcEndpoint, ms: number): void {
    const was = e.healthy();
    e.succeeded(ms);
    if (!was) {
      this.logger.log(`chain ${this.opts.chainId}: provider ${e.label} is healthy again`);
      this.opts.onHealth?.(e.label, true);
    }
  }

  private failed(e: RpcEndpoint, reason: string, retryAfterMs: number | null, cause?: unknown): void {
    const was = e.healthy();
    const backoff = e.failed(reason, retryAfterMs, Date.now(), cause);
    if (was) {
      this.logger.warn(`chain ${this.opts.chainId}: provider ${e.label} backed off ${backoff} ms: ${reason}`);
      this.opts.onHealth?.(e.label, false);
    }
  }

  /**
   * With every provider backed off, the one whose back-off ends first is still tried (a chain
   * with one provider keeps answering as before); never one that asked us to wait (429,
   * -32005) or serves another chain.
   */
  private lastResort(): RpcEndpoint[] {
    const candidates = this.endpoints.filter((e) => e.rightChain && !e.rateLimited()).sort((a, b) => a.backedOffUntil - b.backedOffUntil);
    return candidates.slice(0, 1);
  }

  private remember(hash: string, e: RpcEndpoint): void {
    const key = hash.toLowerCase();
    if (this.acceptedBy.has(key)) return;
    this.acceptedBy.set(key, e);
    if (this.acceptedBy.size > ACCEPTED_MEMORY) this.acceptedBy.delete(this.acceptedBy.keys().next().value as string);
  }

  private unavailable(method: string, reasons: string[]): RpcUnavailableError {
    // Nothing tried: what the providers last failed with says more than "none available".
    const last = this.endpoints.filter((e) => e.lastError).sort((a, b) => b.failedAt - a.failedAt)[0]?.lastError;
    const reason = reasons.length > 0 ? reasons[reasons.length - 1] : (last ?? 'no healthy provider');
    return new RpcUnavailableError(reason.startsWith('limited') ? 'rate limited' : reason.startsWith('fault') ? 'provider error' : reason, `chain ${this.opts.chainId}: no provider answered ${method} (${reasons.join(', ') || 'none tried'})`);
  }

  /**
   * The health check's probe: every provider asked for its chain id and head, back-off or not
   * (the probe is also each open circuit's trial). The chain is up when one answers with the
   * right chain id; otherwise the reason is the first provider's failure code.
   */
  async probe(): Promise<{ ok: boolean; blockNumber: number | null; reason: string | null }> {
    const results = await Promise.all(
      this.endpoints.map(async (e): Promise<string | number> => {
        const id = await this.attempt(e, 'eth_chainId', [], this.opts.timeoutMs);
        if (id.kind === 'failed') return id.reason;
        if (!('result' in id.reply)) return `rpc ${id.reply.error.code}`;
        e.chainChecked = true;
        if (Number(id.reply.result) !== this.opts.chainId) {
          e.rightChain = false;
          e.lastError = 'wrong chain id';
          return 'wrong chain id';
        }
        e.rightChain = true;
        const head = await this.attempt(e, 'eth_blockNumber', [], this.opts.timeoutMs);
        if (head.kind === 'failed') return head.reason;
        return 'result' in head.reply ? Number(BigInt(head.reply.result as string)) : `rpc ${head.reply.error.code}`;
      }),
    );
    const heads = results.filter((r): r is number => typeof r === 'number');
    if (heads.length > 0) return { ok: true, blockNumber: Math.max(...heads), reason: null };
    return { ok: false, blockNumber: null, reason: (results[0] as string | undefined) ?? 'no provider' };
  }

  /**
   * Heads of every provider (and, once, their chain id): what lag and freshness are measured
   * from. A backed-off provider is polled only when its back-off runs out (its trial call).
   */
  async pollHeads(): Promise<void> {
    await Promise.all(
      this.endpoints
        .filter((e) => e.available())
        .map(async (e) => {
          if (!e.chainChecked) {
            const r = await this.attempt(e, 'eth_chainId', [], this.opts.timeoutMs);
            if (r.kind !== 'reply' || !('result' in r.reply)) return;
            e.chainChecked = true;
            if (Number(r.reply.result) !== this.opts.chainId) {
              e.rightChain = false;
              e.lastError = 'wrong chain id';
              this.logger.error(`chain ${this.opts.chainId}: provider ${e.label} reports chain ${Number(r.reply.result)}: not used`);
              this.opts.onHealth?.(e.label, false);
              return;
            }
          }
          await this.attempt(e, 'eth_blockNumber', [], this.opts.timeoutMs);
        }),
    );
  }
}

function quantity(v: unknown): number | null {
  if (typeof v === 'number' && Number.isInteger(v)) return v;
  if (typeof v === 'string' && /^0x[0-9a-f]+$/i.test(v)) return Number(BigInt(v));
  return null;
}

function hex(n: number): string {
  return `0x${n.toString(16)}`;
}
