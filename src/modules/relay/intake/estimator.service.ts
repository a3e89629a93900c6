import { Injectable } from '@nestjs/common';
import { JsonRpcError, JsonRpcPayload, JsonRpcProvider, makeError, toQuantity } from 'ethers';
import { AppError } from '../../../common/errors/app-error';
import { AppConfig } from '../../../config/app-config';
import { ChainRegistry } from '../../chains';
import { PricingService } from '../../pricing';
import { StoredAuthorization } from '../store/relay-transaction.entity';
import { FeeSettings, maxGasPrice, weiToMicroUsd } from '../core/fees';
import { FeeOracle } from '../core/fee-oracle.service';
import { RelayRequest } from './relay-request';
import { decodeRevertData, isRevertError, revertDataOf } from '../core/revert-decoder';
import { ProviderCallError } from '../../../common/evm/provider-error';

export const TRANSFER_GAS = 21_000n;
/** interface.md: the funding service fee on what the relay sends a sender (minBalanceRequired, funding-signed). */
export const FUNDING_FEE_PERCENT = 8n;
/** Largest amount a reservation can hold: micro-USD live in PostgreSQL bigint columns. */
const MAX_COST_MICRO = 2n ** 63n - 1n;

export interface Estimate {
  gasLimit: bigint;
  fees: FeeSettings;
  /** gasLimit × max fee + value (+ the top-up transfer for derived senders). */
  worstCaseWei: bigint;
  usdPerNative: number;
  costMicro: bigint;
  /** interface.md: worst-case native cost plus the 8% funding service fee. */
  minBalanceRequired: bigint;
}

/**
 * Simulates a call and prices its worst case. Simulation runs as the real sender with a
 * balance override, so a derived key that holds nothing yet still simulates like it will run.
 */
@Injectable()
export class Estimator {
  constructor(
    private readonly chains: ChainRegistry,
    private readonly pricing: PricingService,
    private readonly config: AppConfig,
    private readonly feeOracle: FeeOracle,
  ) {}

  async estimate(req: RelayRequest, from: string, options: { derivedSender: boolean }): Promise<Estimate> {
    const provider = this.chains.provider(req.chain.chainId);
    const call = rpcCall(req, from);
    const [gasEstimate, fees, price] = await Promise.all([
      this.simulate(provider, call, req.gasLimit),
      this.fees(req),
      this.pricing.nativeUsd(req.chain.chainId, { valueWei: req.value }),
    ]);
    const gasLimit = req.gasLimit ?? (gasEstimate * BigInt(100 + this.config.RELAY_GAS_BUFFER_PERCENT)) / 100n;
    const gasCost = gasLimit * maxGasPrice(fees);
    const topUp = options.derivedSender ? TRANSFER_GAS * maxGasPrice(fees) : 0n;
    const worstCaseWei = gasCost + req.value + topUp;
    const costMicro = weiToMicroUsd(worstCaseWei, price.usd, req.chain.nativeCurrency.decimals);
    if (costMicro > MAX_COST_MICRO) {
      throw new AppError('TRANSACTION_001', 'the worst-case cost (gas limit × gas price + value) exceeds what any account can spend');
    }
    return {
      gasLimit,
      fees,
      worstCaseWei,
      usdPerNative: price.usd,
      costMicro,
      minBalanceRequired: ((gasCost + req.value) * (100n + FUNDING_FEE_PERCENT) + 99n) / 100n,
    };
  }

  /**
   * One round trip: eth_estimateGas executes the call and reverts with the same data as eth_call
   * would, so it is the simulation; with a caller's gasLimit, eth_call checks it runs within it.
   * A revert is TRANSACTION_004 with the decoded reason, anything else CHAIN_003.
   */
  private async simulate(provider: JsonRpcProvider, call: Record<string, unknown>, gasLimit: bigint | null): Promise<bigint> {
    const override = { [call.from as string]: { balance: toQuantity(10n ** 30n) } };
    try {
      if (gasLimit !== null) {
        await sendWithOverride(provider, 'eth_call', [call, 'latest'], override);
        return gasLimit;
      }
      return BigInt(await sendWithOverride(provider, 'eth_estimateGas', [call, 'latest'], override));
    } catch (err) {
      if (err instanceof AppError) throw err;
      if (isRevertError(err)) throw new AppError('TRANSACTION_004', decodeRevertData(revertDataOf(err)));
      throw new ProviderCallError('simulation failed', err);
    }
  }

  private async fees(req: RelayRequest): Promise<FeeSettings> {
    if (req.gas.kind === 'legacy') return { type: 'legacy', gasPrice: req.gas.gasPrice };
    if (req.gas.kind === 'eip1559') return { type: 'eip1559', maxFeePerGas: req.gas.maxFeePerGas, maxPriorityFeePerGas: req.gas.maxPriorityFeePerGas };
    try {
      return await this.feeOracle.fees(req.chain.chainId);
    } catch (err) {
      throw new ProviderCallError('fee data unavailable', err);
    }
  }
}

export function rpcAuthorization(a: StoredAuthorization): Record<string, string> {
  return { chainId: toQuantity(BigInt(a.chainId)), address: a.address, nonce: toQuantity(BigInt(a.nonce)), yParity: toQuantity(a.yParity), r: a.r, s: a.s };
}

function rpcCall(req: RelayRequest, from: string): Record<string, unknown> {
  const call: Record<string, unknown> = { from, to: req.to, data: req.data, value: toQuantity(req.value) };
  if (req.authorizationList) call.authorizationList = req.authorizationList.map(rpcAuthorization);
  if (req.gasLimit !== null) call.gas = toQuantity(req.gasLimit);
  return call;
}

/**
 * Nodes without state overrides reject the third parameter; then simulate without it. Hardhat's
 * node answers -32602 "trailing characters at line 1 column N" with a `data` object, which ethers
 * reads as a revert: the JSON-RPC code decides, not ethers' reading.
 */
async function sendWithOverride(provider: JsonRpcProvider, method: string, params: unknown[], override: Record<string, unknown>): Promise<string> {
  try {
    return await sendNow(provider, method, [...params, override]);
  } catch (err) {
    const text = String((err as Error).message).toLowerCase();
    const code = (err as { info?: { error?: { code?: unknown } }; error?: { code?: unknown } }).info?.error?.code ?? (err as { error?: { code?: unknown } }).error?.code;
    if (code === -32602 || text.includes('invalid params') || text.includes('too many') || text.includes('unexpected') || text.includes('trailing characters')) return sendNow(provider, method, params);
    throw err;
  }
}

/**
 * What `provider.send` does for one call, without its batching queue: `send` parks every call
 * behind a timer (0 ms with batchMaxCount 1, still a turn of the timers phase, about a
 * millisecond under load) before the transport sees it. Same transport (`_send`: the chain's
 * RpcPool), same errors: a JSON-RPC error becomes ethers' error through `getRpcError` (a revert is
 * CALL_EXCEPTION with its data), a transport failure is thrown as it is.
 */
export async function sendNow(provider: JsonRpcProvider, method: string, params: unknown[]): Promise<string> {
  const payload: JsonRpcPayload = { method, params, id: 1, jsonrpc: '2.0' };
  const reply = (await provider._send(payload)).find((r) => r.id === payload.id);
  if (provider.destroyed) throw makeError('provider destroyed; cancelled request', 'UNSUPPORTED_OPERATION', { operation: method });
  if (!reply) throw makeError('missing response for request', 'BAD_DATA', { value: reply, info: { payload } });
  if ('error' in reply) throw provider.getRpcError(payload, reply as JsonRpcError);
  return reply.result as string;
}
