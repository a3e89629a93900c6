import { JsonRpcError, JsonRpcPayload, JsonRpcProvider, JsonRpcResult, Network } from 'ethers';
import { RpcPool } from './rpc-pool';

/**
 * The ethers provider every module gets from ChainRegistry: ethers builds requests and parses
 * answers as usual, and each call goes through the chain's RpcPool (failover, back-off,
 * broadcast to all, fresh fate reads) instead of one URL.
 */
export class PooledJsonRpcProvider extends JsonRpcProvider {
  private nextCallId = 1;

  constructor(
    readonly pool: RpcPool,
    network: Network,
  ) {
    // batchMaxCount 1: each call is routed on its own (providers' maxBatch is at least 1).
    // cacheTimeout -1: ethers would otherwise answer repeated reads (block number, nonces) from a
    // 250 ms cache, which hides a nonce just used and delays every receipt poll.
    super(undefined, network, { staticNetwork: network, batchMaxCount: 1, pollingInterval: 250, cacheTimeout: -1 });
  }

  /**
   * Straight to the pool: ethers' own `send` queues every call and sends it from a setTimeout(0)
   * (its batching drain, even with batches of one), a timer hop of a millisecond or more per call
   * (more under load) on every broadcast, receipt and head read. Answers and errors as ethers
   * makes them (`getRpcError`: CALL_EXCEPTION, INSUFFICIENT_FUNDS, ...); a destroyed provider
   * rejects as ethers does.
   */
  override async send(method: string, params: unknown[] | Record<string, unknown>): Promise<unknown> {
    if (this.destroyed) return super.send(method, params as unknown[]);
    const payload: JsonRpcPayload = { method, params: params ?? [], id: this.nextCallId++, jsonrpc: '2.0' };
    const reply = await this.pool.request(method, (params ?? []) as unknown[]);
    if ('result' in reply) return reply.result;
    throw this.getRpcError(payload, { id: payload.id, error: reply.error } as JsonRpcError);
  }

  override async _send(payload: JsonRpcPayload | JsonRpcPayload[]): Promise<JsonRpcResult[]> {
    const calls = Array.isArray(payload) ? payload : [payload];
    return Promise.all(
      calls.map(async (call) => {
        const reply = await this.pool.request(call.method, (call.params ?? []) as unknown[]);
        return 'result' in reply ? { id: call.id, result: reply.result } : ({ id: call.id, error: reply.error } as unknown as JsonRpcResult);
      }),
    );
  }
}
