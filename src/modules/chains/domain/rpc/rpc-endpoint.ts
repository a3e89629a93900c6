import http from 'node:http';
import https from 'node:https';
import { urlToHttpOptions } from 'node:url';
import { RpcEndpointDef } from '../rpc-endpoints';

export type RpcErrorBody = { code: number; message: string; data?: unknown };
export type RpcReply = { result: unknown } | { error: RpcErrorBody };

/**
 * A call that got no JSON-RPC answer: timeout, refused or reset connection, an HTTP error
 * status, an unparsable body. `reason` is the short code shown (`timeout`, `http 429`, ...).
 */
export class TransportFailure extends Error {
  constructor(
    readonly reason: string,
    /** From a 429's Retry-After, in ms. */
    readonly retryAfterMs: number | null = null,
  ) {
    super(reason);
  }
}

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
  /** The URL as request options, parsed at the first call (a URL per call was a measurable share of a call's CPU). */
  private target?: Target;
  /** Calls waiting to go out together as one JSON-RPC batch (`maxBatch` above 1), oldest first. */
  private batch: BatchedCall[] = [];
  private batchScheduled = false;
  /** The provider answered a batch with one object, not an array: it takes single calls only, whatever `maxBatch` says. */
  batchRefused = false;
  /** The failure last counted (`failed`): one failed batch is one failure of the provider, not one per call in it. */
  private lastFailure?: unknown;

  constructor(
    readonly def: RpcEndpointDef,
    /** The redacted URL (unique within the chain): the only name logs, metrics and /health use. */
    readonly label: string,
  ) {}

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
      return await (this.batches() && !halfOpen ? this.enqueue(method, params, timeoutMs) : this.post(method, params, timeoutMs));
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

  /**
   * One POST over node:http(s) with a keep-alive agent (fetch refuses some ports outright and
   * hides socket error codes); the timeout covers connect, headers and body, retries included.
   *
   * A kept-alive connection the provider closed while it sat idle fails the next request written
   * to it with a reset before any byte of an answer: the provider never read that request, so it
   * is sent once more on a new connection instead of counting against the provider (which would
   * open its circuit and, with one provider, take the chain out of service for a second). A reset
   * on a new connection, or after the answer began, is a failure as before.
   */
  private async post(method: string, params: unknown[], timeoutMs: number): Promise<RpcReply> {
    const text = await this.exchange(JSON.stringify({ jsonrpc: '2.0', id: this.nextId++, method, params }), timeoutMs);
    return parseReply(parseJson(text));
  }

  /** The body POSTed, the answer's text; sent once more on a new connection after a stale one (above). */
  private async exchange(body: string, timeoutMs: number): Promise<string> {
    const deadline = Date.now() + Math.max(1, Math.floor(timeoutMs));
    try {
      return await this.postOnce(body, timeoutMs);
    } catch (err) {
      if (!(err instanceof StaleConnection)) throw err;
      return this.postOnce(body, Math.max(1, deadline - Date.now()), true);
    }
  }

  private batches(): boolean {
    return (this.def.maxBatch ?? 1) > 1 && !this.batchRefused;
  }

  /**
   * JSON-RPC batching, for a provider whose `maxBatch` is above 1: the calls made in one turn of
   * the event loop (the estimates of submissions parsed together, the broadcasts of sends woken
   * by one block, the tracker's block reads) go out as one POST of up to `maxBatch` calls. A
   * request costs the client about as much as the calls in it together (node:http, headers,
   * socket writes; about 30 µs against 9 µs per call in batches of four, docs/benchmarks.md),
   * and the provider one request instead of several.
   */
  private enqueue(method: string, params: unknown[], timeoutMs: number): Promise<RpcReply> {
    return new Promise<RpcReply>((resolve, reject) => {
      this.batch.push({ method, params, timeoutMs, resolve, reject });
      if (this.batch.length >= (this.def.maxBatch ?? 1)) return this.flush();
      if (this.batchScheduled) return;
      this.batchScheduled = true;
      setImmediate(() => {
        this.batchScheduled = false;
        this.flush();
      });
    });
  }

  private flush(): void {
    while (this.batch.length > 0) {
      const calls = this.batch.splice(0, this.def.maxBatch ?? 1);
      if (calls.length === 1) {
        const [c] = calls;
        this.post(c.method, c.params, c.timeoutMs).then(c.resolve, c.reject);
      } else void this.postBatch(calls);
    }
  }

  /**
   * One POST for the calls; each gets its own answer by id. A transport failure fails them all
   * with the same error (counted once, `failed`). The timeout is the shortest of theirs: a
   * provider too slow for one call of the batch is too slow for that call alone. An answer that
   * is not an array means the provider takes no batches: the calls are sent one by one, and so is
   * every later call.
   */
  private async postBatch(calls: BatchedCall[]): Promise<void> {
    const ids = calls.map(() => this.nextId++);
    const body = JSON.stringify(calls.map((c, i) => ({ jsonrpc: '2.0', id: ids[i], method: c.method, params: c.params })));
    let answer: unknown;
    try {
      answer = parseJson(await this.exchange(body, Math.min(...calls.map((c) => c.timeoutMs))));
    } catch (err) {
      for (const c of calls) c.reject(err);
      return;
    }
    if (!Array.isArray(answer)) {
      this.batchRefused = true;
      for (const c of calls) this.post(c.method, c.params, c.timeoutMs).then(c.resolve, c.reject);
      return;
    }
    const byId = new Map<unknown, unknown>();
    for (const item of answer) if (item && typeof item === 'object') byId.set((item as { id?: unknown }).id, item);
    calls.forEach((c, i) => {
      try {
        c.resolve(parseReply(byId.get(ids[i])));
      } catch (err) {
        c.reject(err);
      }
    });
  }

  private postOnce(body: string, timeoutMs: number, retried = false): Promise<string> {
    this.target ??= targetOf(this.def.url);
    const { client, options, agent } = this.target;
    return new Promise<string>((resolve, reject) => {
      let answered = false;
      let settled = false;
      const finish = (fn: () => void) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        fn();
      };
      const req = client.request(
        { ...options, method: 'POST', agent, headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } },
        (res) => {
          answered = true;
          const status = res.statusCode ?? 0;
          if (status === 429 || status < 200 || status >= 300) {
            res.resume();
            const after = status === 429 ? retryAfter(headerOf(res.headers['retry-after'])) : null;
            finish(() => reject(new TransportFailure(`http ${status}`, after)));
            return;
          }
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('error', (err) => finish(() => reject(new TransportFailure(transportReason(err)))));
          res.on('end', () => finish(() => resolve(Buffer.concat(chunks).toString('utf8'))));
        },
      );
      const timer = setTimeout(() => {
        finish(() => reject(new TransportFailure('timeout')));
        req.destroy();
      }, Math.max(1, Math.floor(timeoutMs)));
      req.on('error', (err) => {
        const reason = transportReason(err);
        const stale = !retried && !answered && req.reusedSocket && reason === 'connection reset';
        finish(() => reject(stale ? new StaleConnection(reason) : new TransportFailure(reason)));
      });
      req.end(body);
    });
  }
}

interface Target {
  client: typeof http | typeof https;
  options: http.RequestOptions;
  agent: http.Agent;
}

function targetOf(url: string): Target {
  const parsed = new URL(url);
  const secure = parsed.protocol === 'https:';
  return { client: secure ? https : http, options: urlToHttpOptions(parsed), agent: secure ? HTTPS_AGENT : HTTP_AGENT };
}

/** A reset on a kept-alive connection before any answer: the provider closed it while idle (see `post`). */
class StaleConnection extends TransportFailure {}

const HTTP_AGENT = new http.Agent({ keepAlive: true, maxSockets: 64 });
const HTTPS_AGENT = new https.Agent({ keepAlive: true, maxSockets: 64 });

function headerOf(v: string | string[] | undefined): string | null {
  return Array.isArray(v) ? (v[0] ?? null) : (v ?? null);
}

interface BatchedCall {
  method: string;
  params: unknown[];
  timeoutMs: number;
  resolve: (reply: RpcReply) => void;
  reject: (err: unknown) => void;
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw new TransportFailure('bad response');
  }
}

/** One call's answer (a JSON-RPC response object): its result or error; anything else is no answer. */
function parseReply(value: unknown): RpcReply {
  const body = value as { result?: unknown; error?: RpcErrorBody } | null | undefined;
  if (!body || typeof body !== 'object' || Array.isArray(body)) throw new TransportFailure('bad response');
  if (body.error && typeof body.error === 'object') return { error: { code: Number(body.error.code), message: String(body.error.message ?? ''), data: body.error.data } };
  if (!('result' in body)) throw new TransportFailure('bad response');
  return { result: body.result };
}

function push<T>(ring: T[], value: T): void {
  ring.push(value);
  if (ring.length > WINDOW) ring.shift();
}

/** Retry-After as seconds or an HTTP date, in ms; absent or unreadable: null (the 1 s floor applies). */
export function retryAfter(header: string | null, now = Date.now()): number | null {
  if (!header) return null;
  const seconds = Number(header.trim());
  if (Number.isFinite(seconds) && seconds >= 0) return Math.min(seconds * 1000, 600_000);
  const at = Date.parse(header);
  return Number.isNaN(at) ? null : Math.min(Math.max(0, at - now), 600_000);
}

const SOCKET: Record<string, string> = {
  ECONNREFUSED: 'connection refused',
  ECONNRESET: 'connection reset',
  EPIPE: 'connection reset',
  UND_ERR_SOCKET: 'connection reset',
  UND_ERR_CLOSED: 'connection reset',
  ETIMEDOUT: 'timeout',
  UND_ERR_CONNECT_TIMEOUT: 'timeout',
  UND_ERR_HEADERS_TIMEOUT: 'timeout',
  UND_ERR_BODY_TIMEOUT: 'timeout',
  ENOTFOUND: 'dns failure',
  EAI_AGAIN: 'dns failure',
  EHOSTUNREACH: 'unreachable',
  ENETUNREACH: 'unreachable',
};

function transportReason(err: unknown): string {
  const e = err as { code?: string; cause?: { code?: string } };
  const code = e?.code ?? e?.cause?.code;
  if (code && SOCKET[code]) return SOCKET[code];
  return 'provider error';
}
