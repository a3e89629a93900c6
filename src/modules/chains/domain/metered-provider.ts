import { JsonRpcPayload, JsonRpcProvider, JsonRpcResult } from 'ethers';

export type RpcObserver = (method: string, seconds: number, ok: boolean) => void;

/**
 * A JSON-RPC provider that reports every call it makes (method, duration, outcome), so operators
 * see how many node calls the relay spends per transaction and where a slow node hurts.
 */
export class MeteredJsonRpcProvider extends JsonRpcProvider {
  constructor(
    private readonly observe: RpcObserver,
    ...args: ConstructorParameters<typeof JsonRpcProvider>
  ) {
    super(...args);
  }

  override async _send(payload: JsonRpcPayload | JsonRpcPayload[]): Promise<JsonRpcResult[]> {
    const started = performance.now();
    const methods = Array.isArray(payload) ? payload.map((p) => p.method) : [payload.method];
    let ok = false;
    try {
      const results = await super._send(payload);
      ok = true;
      return results;
    } finally {
      const seconds = (performance.now() - started) / 1000;
      for (const method of methods) this.observe(method, seconds, ok);
    }
  }
}
