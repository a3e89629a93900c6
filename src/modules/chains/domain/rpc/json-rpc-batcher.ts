import type { HttpTransport } from './http-transport';
import { parseJson, parseReply, RpcReply } from './json-rpc';

interface BatchedCall {
  method: string;
  params: unknown[];
  timeoutMs: number;
  resolve: (reply: RpcReply) => void;
  reject: (err: unknown) => void;
}

/**
 * JSON-RPC batching for a provider whose `maxBatch` is above 1: the calls made in one turn of
 * the event loop (the estimates of submissions parsed together, the broadcasts of sends woken by
 * one block, the tracker's block reads) go out as one POST of up to `maxBatch` calls. A request
 * costs the client about as much as the calls in it together (node:http, headers, socket writes;
 * about 31 µs against 9 µs per call in batches of four, docs/benchmarks.md), and the provider one
 * request instead of several. One call alone in its turn goes as a single call.
 */
export class JsonRpcBatcher {
  private waiting: BatchedCall[] = [];
  private scheduled = false;
  /** The provider answered a batch with one object, not an array: it takes single calls only, whatever `maxBatch` says. */
  refused = false;

  constructor(
    private readonly maxBatch: number,
    private readonly transport: HttpTransport,
    private readonly nextId: () => number,
    /** A call sent on its own. */
    private readonly single: (method: string, params: unknown[], timeoutMs: number) => Promise<RpcReply>,
  ) {}

  call(method: string, params: unknown[], timeoutMs: number): Promise<RpcReply> {
    return new Promise<RpcReply>((resolve, reject) => {
      this.waiting.push({ method, params, timeoutMs, resolve, reject });
      if (this.waiting.length >= this.maxBatch) return this.flush();
      if (this.scheduled) return;
      this.scheduled = true;
      setImmediate(() => {
        this.scheduled = false;
        this.flush();
      });
    });
  }

  private flush(): void {
    while (this.waiting.length > 0) {
      const calls = this.waiting.splice(0, this.maxBatch);
      if (calls.length === 1) this.alone(calls[0]);
      else void this.post(calls);
    }
  }

  private alone(c: BatchedCall): void {
    this.single(c.method, c.params, c.timeoutMs).then(c.resolve, c.reject);
  }

  /**
   * One POST for the calls; each gets its own answer by id. A transport failure fails them all
   * with the same error (which the provider's circuit counts once, `RpcEndpoint.failed`). The
   * timeout is the shortest of theirs: a provider too slow for one call of the batch is too slow
   * for that call alone. An answer that is not an array means the provider takes no batches: the
   * calls are sent one by one, and so is every later call.
   */
  private async post(calls: BatchedCall[]): Promise<void> {
    const ids = calls.map(() => this.nextId());
    const body = JSON.stringify(calls.map((c, i) => ({ jsonrpc: '2.0', id: ids[i], method: c.method, params: c.params })));
    let answer: unknown;
    try {
      answer = parseJson(await this.transport.post(body, Math.min(...calls.map((c) => c.timeoutMs))));
    } catch (err) {
      for (const c of calls) c.reject(err);
      return;
    }
    if (!Array.isArray(answer)) {
      this.refused = true;
      for (const c of calls) this.alone(c);
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
}
