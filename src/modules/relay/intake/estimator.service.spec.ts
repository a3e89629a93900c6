import { AbiCoder, JsonRpcPayload, JsonRpcProvider, JsonRpcResult, Network } from 'ethers';
import { AppError } from '../../../common/errors/app-error';
import type { AppConfig } from '../../../config/app-config';
import type { ChainRegistry } from '../../chains';
import type { PricingService } from '../../pricing';
import type { FeeOracle } from '../core/fee-oracle.service';
import { Estimator, sendNow } from './estimator.service';
import type { RelayRequest } from './relay-request';

/** A provider whose transport answers from a script, as PooledJsonRpcProvider's does from its pool. */
class ScriptedProvider extends JsonRpcProvider {
  readonly calls: JsonRpcPayload[] = [];
  sends = 0;

  constructor(private readonly answer: (call: JsonRpcPayload) => Record<string, unknown>) {
    const network = Network.from(31337);
    super(undefined, network, { staticNetwork: network, batchMaxCount: 1, cacheTimeout: -1 });
  }

  override async _send(payload: JsonRpcPayload | JsonRpcPayload[]): Promise<JsonRpcResult[]> {
    const calls = Array.isArray(payload) ? payload : [payload];
    this.calls.push(...calls);
    return calls.map((call) => ({ id: call.id, ...this.answer(call) }) as unknown as JsonRpcResult);
  }

  override send(method: string, params: unknown[] | Record<string, unknown>): Promise<unknown> {
    this.sends++;
    return super.send(method, params);
  }
}

describe('Estimator simulation (one estimateGas straight through the transport)', () => {
  const request = { chain: { chainId: 31337, nativeCurrency: { decimals: 18 } }, to: '0x' + '11'.repeat(20), data: '0x1234', value: 0n, gasLimit: null, gas: { kind: 'eip1559', maxFeePerGas: 2n * 10n ** 9n, maxPriorityFeePerGas: 10n ** 6n }, authorizationList: null } as unknown as RelayRequest;
  const from = '0x' + '22'.repeat(20);

  function estimatorWith(provider: JsonRpcProvider): Estimator {
    const chains = { provider: () => provider } as unknown as ChainRegistry;
    const pricing = { nativeUsd: async () => ({ usd: 2000 }) } as unknown as PricingService;
    return new Estimator(chains, pricing, { RELAY_GAS_BUFFER_PERCENT: 20 } as AppConfig, {} as FeeOracle);
  }

  it('sends eth_estimateGas with the balance override once, not through the batching send queue', async () => {
    const provider = new ScriptedProvider(() => ({ result: '0x5208' }));
    const estimate = await estimatorWith(provider).estimate(request, from, { derivedSender: false });
    expect(estimate.gasLimit).toBe((21_000n * 120n) / 100n);
    expect(provider.calls.map((c) => c.method)).toEqual(['eth_estimateGas']);
    expect(provider.calls[0].params).toEqual([{ from, to: request.to, data: '0x1234', value: '0x0' }, 'latest', { [from]: { balance: expect.any(String) } }]);
    expect(provider.sends).toBe(0);
  });

  it('a revert is TRANSACTION_004 with the decoded reason', async () => {
    const data = '0x08c379a0' + AbiCoder.defaultAbiCoder().encode(['string'], ['not allowed']).slice(2);
    const provider = new ScriptedProvider(() => ({ error: { code: 3, message: 'execution reverted: not allowed', data } }));
    const err = await estimatorWith(provider).estimate(request, from, { derivedSender: false }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AppError);
    expect((err as AppError).code).toBe('TRANSACTION_004');
    expect((err as AppError).message).toContain('not allowed');
  });

  it('a node without state overrides (-32602) is asked again without them', async () => {
    const provider = new ScriptedProvider((call) => ((call.params as unknown[]).length === 3 ? { error: { code: -32602, message: 'invalid params' } } : { result: '0x5208' }));
    await estimatorWith(provider).estimate(request, from, { derivedSender: false });
    expect(provider.calls.map((c) => (c.params as unknown[]).length)).toEqual([3, 2]);
  });

  it.each([
    ['a revert with data', { error: { code: 3, message: 'execution reverted: x', data: '0x08c379a0' + AbiCoder.defaultAbiCoder().encode(['string'], ['x']).slice(2) } }],
    ['a node error without data', { error: { code: -32000, message: 'header not found' } }],
    ['invalid params', { error: { code: -32602, message: 'invalid params' } }],
    ['a result', { result: '0x5208' }],
  ])('answers %s exactly as provider.send would', async (_, reply) => {
    const params = [{ from, to: request.to, data: '0x1234' }, 'latest'];
    const viaSend = await new ScriptedProvider(() => reply).send('eth_estimateGas', params).then((r) => ({ r }), (e: Error) => ({ e }));
    const direct = await sendNow(new ScriptedProvider(() => reply), 'eth_estimateGas', params).then((r) => ({ r }), (e: Error) => ({ e }));
    if ('r' in viaSend) return expect(direct).toEqual(viaSend);
    const shape = (e: unknown) => { const { code, shortMessage, data, reason, info } = e as Record<string, unknown>; return { code, shortMessage, data, reason, info, message: (e as Error).message }; };
    expect('e' in direct && shape(direct.e)).toEqual(shape(viaSend.e));
  });
});
