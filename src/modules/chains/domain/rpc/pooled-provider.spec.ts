import { Network } from 'ethers';
import { RpcUnavailableError } from '../../../../common/evm/rpc-unavailable';
import { PooledJsonRpcProvider } from './pooled-provider';
import type { RpcPool } from './rpc-pool';

describe('PooledJsonRpcProvider', () => {
  function providerAnswering(answer: (method: string, params: unknown[]) => Promise<unknown>) {
    const calls: Array<{ method: string; params: unknown[] }> = [];
    const pool = {
      request: async (method: string, params: unknown[]) => {
        calls.push({ method, params });
        return answer(method, params);
      },
    } as unknown as RpcPool;
    return { provider: new PooledJsonRpcProvider(pool, Network.from(31337)), calls };
  }

  afterEach(() => jest.useRealTimers());

  it('hands a call to the pool at once: no timer between the call and the request (ethers queues each call behind a setTimeout)', async () => {
    const { provider, calls } = providerAnswering(async () => ({ result: '0x2a' }));
    jest.useFakeTimers();
    // With the timers frozen, a call that waited for one would never resolve.
    await expect(provider.getBlockNumber()).resolves.toBe(42);
    await expect(provider.send('eth_getBlockReceipts', ['0x2a'])).resolves.toBe('0x2a');
    expect(calls).toEqual([
      { method: 'eth_blockNumber', params: [] },
      { method: 'eth_getBlockReceipts', params: ['0x2a'] },
    ]);
    provider.destroy();
  });

  it("a node's error becomes the error ethers makes of it; a pool without any provider rejects with its own error", async () => {
    const revert = { code: 3, message: 'execution reverted', data: '0x08c379a0' + '0'.repeat(62) + '20' + '0'.repeat(62) + '04' + Buffer.from('nope').toString('hex').padEnd(64, '0') };
    const { provider } = providerAnswering(async (method) => {
      if (method === 'eth_call') return { error: revert };
      if (method === 'eth_sendRawTransaction') return { error: { code: -32000, message: 'insufficient funds for gas * price + value' } };
      throw new RpcUnavailableError('no provider', `no provider of 31337 answered ${method}`);
    });
    await expect(provider.call({ to: '0x0000000000000000000000000000000000000001', data: '0x' })).rejects.toMatchObject({ code: 'CALL_EXCEPTION', reason: 'nope' });
    await expect(provider.send('eth_sendRawTransaction', ['0x00'])).rejects.toMatchObject({ code: 'INSUFFICIENT_FUNDS' });
    await expect(provider.send('eth_blockNumber', [])).rejects.toBeInstanceOf(RpcUnavailableError);
    provider.destroy();
  });
});
