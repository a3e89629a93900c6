import { RpcEndpointDef } from '../rpc-endpoints';
import { HttpTransport } from './http-transport';
import { JsonRpcBatcher } from './json-rpc-batcher';
import { parseJson, parseReply, RpcReply } from './json-rpc';


const WINDOW = 100;
const BACKOFF_MAX_MS = 30_000;
const BACKOFF_MIN_MS = 1_000;

/**
 * One provider of a chain and what the pool knows of it: head, latency and error history, and
 * its circuit. Closed: calls flow. Open (`backedOffUntil` in the future): no calls. Half-open
 * (the back-off ran out after failures): one trial call at a time; a success closes the
 * circuit, a failure opens it again for twice as long (1 s up to 30 s; a 429 for at least its
 * Retry-After).
 */
export class RpcEndpoint {
  headBlock: number | null = null;
  headAt = 0;
  /** Consecutive failures; 0 while the circuit is closed. */
  failures = 0;
  backedOffUntil = 0;
  lastError: string | null = null;
  failedAt = 0;
  /** False after the provider reported another chain id: never used again. */
  rightChain = true;
  chainChecked = false;
  private trialInFlight = false;
  private readonly latencies: number[] = [];
  private readonly outcomes: boolean[] = [];
  /** latencyP50 and errorRate as of the last outcome: the pool weighs every call by them, outcomes change them. */
  private p50?: number | null;
  private failureRate?: number;
  private nextSlotAt = 0;
  private nextId = 1;
  /** The failure last counted (`failed`): one failed batch is one failure of the provider, not one per call in it. */
  private lastFailure?: unknown;
  private readonly transport: HttpTransport;
  /** Present when the provider takes batches (`maxBatch` above 1). */
  private readonly batcher?: JsonRpcBatcher;

  constructor(
    readonly def: RpcEndpointDef,
    /** The redacted URL (unique within the chain): the only name logs, metrics and /health use. */
    readonly label: string,
  ) {
    this.transport = new HttpTransport(def.url);
    if ((def.maxBatch ?? 1) > 1) this.batcher = new JsonRpcBatcher(def.maxBatch!, this.transport, () => this.nextId++, (method, params, timeoutMs) => this.post(method, params, timeoutMs));
  }

  /** The provider refused a batch: it gets single calls only. */
  get batchRefused(): boolean {
    return this.batcher?.refused ?? false;
  }

  /** Takes calls now: circuit closed, or half-open with no trial running. */
  available(now = Date.now()): boolean {
    if (!this.rightChain || now < this.backedOffUntil) return false;
    return this.failures === 0 || !this.trialInFlight;
  }

  healthy(now = Date.now()): boolean {
    return this.rightChain && this.failures === 0 && now >= this.backedOffUntil;
  }

  /** Milliseconds until `maxRps` lets the next call go (0 without a limit). */
  paceDelay(now = Date.now()): number {
    return this.def.maxRps ? Math.max(0, this.nextSlotAt - now) : 0;
  }

  async call(method: string, params: unknown[], timeoutMs: number): Promise<RpcReply> {
    const halfOpen = this.failures > 0;
    if (halfOpen) this.trialInFlight = true;
    try {
      await this.pace();
      // A trial call (half-open) goes alone: its outcome alone decides the circuit.
      return await (this.batcher && !this.batcher.refused && !halfOpen ? this.batcher.call(method, params, timeoutMs) : this.post(method, params, timeoutMs));
    } finally {
      if (halfOpen) this.trialInFlight = false;
    }
  }

  succeeded(latencyMs: number): void {
    this.failures = 0;
    this.backedOffUntil = 0;
    this.lastError = null;
    push(this.latencies, latencyMs);
    push(this.outcomes, true);
    this.p50 = undefined;
    this.failureRate = undefined;
  }

  /** Opens the circuit: 1 s doubling per consecutive failure up to 30 s; a 429 for at least its Retry-After. */
  failed(reason: string, retryAfterMs: number | null = null, now = Date.now(), cause?: unknown): number {
    // Every call of a failed batch reports the same failure: it counts once.
    if (cause !== undefined && cause === this.lastFailure) return Math.max(0, this.backedOffUntil - now);
    this.lastFailure = cause;
    this.failures++;
    this.lastError = reason;
    this.failedAt = now;
    push(this.outcomes, false);
    this.failureRate = undefined;
    const backoff = Math.max(Math.min(BACKOFF_MAX_MS, BACKOFF_MIN_MS * 2 ** (this.failures - 1)), retryAfterMs ?? 0);
    this.backedOffUntil = now + backoff;
    return backoff;
  }

  /** Backed off because the provider asked us to wait (429, -32005): not called before it says. */
  rateLimited(now = Date.now()): boolean {
    return now < this.backedOffUntil && (this.lastError === 'http 429' || (this.lastError ?? '').includes('rate limited'));
  }

  latencyP50(): number | null {
    if (this.p50 !== undefined) return this.p50;
    if (this.latencies.length === 0) return (this.p50 = null);
    const sorted = [...this.latencies].sort((a, b) => a - b);
    return (this.p50 = sorted[Math.floor((sorted.length - 1) / 2)]);
  }

  errorRate(): number {
    this.failureRate ??= this.outcomes.length === 0 ? 0 : this.outcomes.filter((ok) => !ok).length / this.outcomes.length;
    return this.failureRate;
  }

  noteHead(block: number, now = Date.now()): void {
    if (this.headBlock === null || block >= this.headBlock) {
      this.headBlock = block;
      this.headAt = now;
    }
  }

  private async pace(): Promise<void> {
    if (!this.def.maxRps) return;
    const now = Date.now();
    const at = Math.max(now, this.nextSlotAt);
    this.nextSlotAt = at + 1000 / this.def.maxRps;
    if (at > now) await new Promise((r) => setTimeout(r, at - now));
  }

  private async post(method: string, params: unknown[], timeoutMs: number): Promise<RpcReply> {
    const text = await this.transport.post(JSON.stringify({ jsonrpc: '2.0', id: this.nextId++, method, params }), timeoutMs);
    return parseReply(parseJson(text));
  }
}

function push<T>(ring: T[], value: T): void {
  ring.push(value);
  if (ring.length > WINDOW) ring.shift();
}
