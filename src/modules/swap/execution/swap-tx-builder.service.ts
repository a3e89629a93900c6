import { Injectable } from '@nestjs/common';
import { ZeroAddress } from 'ethers';
import { AppError } from '../../../common/errors/app-error';
import { normalizeAddress } from '../../../common/evm/address';
import type { StoredQuote } from '../quotes/stored-quote';
import type { TxView } from '../quotes/route-view';
import { checksum, NATIVE_TOKEN } from '../catalog/token-catalog.service';
import { SWAP_EXECUTOR_ABI } from './executor-abi';
import { CrossChainRoutes } from '../quotes/cross-chain';

/** What a caller may change from the stored quote: a tighter minimum, or a later deadline (gasless permits outlive route quotes). */
export interface ExecutorCallOverrides {
  minAmountOut?: bigint;
  /** Unix seconds; default the quote's expiry. */
  deadline?: number;
}

export interface ExecutorCall {
  to: string;
  data: string;
  /** Native value to send: the whole input for native-in swaps. */
  value: bigint;
}

/** Builds SwapExecutor.swap calls for stored quotes. */
@Injectable()
export class SwapTxBuilder {
  constructor(private readonly crossChain: CrossChainRoutes) {}

  executorCall(quote: StoredQuote, overrides: ExecutorCallOverrides = {}): ExecutorCall {
    const plan = quote.plan;
    const executor = address(plan.executor, 'executor');
    const tokenIn = address(plan.tokenIn, 'tokenIn');
    const tokenOut = address(plan.tokenOut, 'tokenOut');
    const receiver = address(plan.receiver, 'receiver');
    const feeRecipient = address(plan.feeRecipient, 'feeRecipient');
    const amountIn = amount(plan.amountIn, 'amountIn');
    const feeAmount = amount(plan.feeAmount, 'feeAmount');
    const minAmountOut = overrides.minAmountOut ?? amount(plan.minAmountOut, 'minAmountOut');
    if (plan.legs.length === 0) throw new AppError('VALIDATION_001', 'stored quote has no route legs');
    const legs = plan.legs.map((leg) => ({
      amountIn: amount(leg.amountIn, 'leg amountIn'),
      hops: leg.hops.map((hop) => {
        if (!Number.isInteger(hop.feeBps) || hop.feeBps < 0 || hop.feeBps >= 10_000) throw new AppError('VALIDATION_001', 'stored quote has a bad pool fee');
        if (hop.kind !== undefined && hop.kind !== 'v2' && hop.kind !== 'v3') throw new AppError('VALIDATION_001', 'stored quote has a bad pool kind');
        return { pool: address(hop.pool, 'pool'), zeroForOne: Boolean(hop.zeroForOne), feeBps: hop.feeBps, kind: hop.kind === 'v3' ? 1 : 0 };
      }),
    }));
    const data = SWAP_EXECUTOR_ABI.encodeFunctionData('swap', [
      {
        tokenIn,
        tokenOut,
        amountIn,
        minAmountOut,
        receiver,
        feeAmount,
        feeRecipient,
        deadline: BigInt(overrides.deadline ?? quote.expiry),
        ref: /^0x[0-9a-f]{64}$/.test(quote.quoteId) ? quote.quoteId : `0x${'0'.repeat(64)}`,
        legs,
      },
    ]);
    return { to: executor, data, value: tokenIn === ZeroAddress.toLowerCase() ? amountIn : 0n };
  }

  /** The `Tx` of interface.md for a stored quote, sent by the quote's sender. */
  transaction(quote: StoredQuote, simulation: boolean): TxView {
    if (quote.crossChain) {
      const bridge = this.crossChain.get();
      if (!bridge) throw new AppError('VALIDATION_001', 'cross-chain quotes are not served here');
      return bridge.transaction(quote, simulation);
    }
    const call = this.executorCall(quote);
    const nativeIn = quote.plan.tokenIn === NATIVE_TOKEN;
    return {
      // Native input needs no approval; ERC-20 input is pulled by the executor itself.
      allowanceTarget: nativeIn ? ZeroAddress : checksum(call.to),
      chain: quote.plan.chainId,
      data: call.data,
      expiry: quote.expiry,
      // The route's gasLimit is the model's estimate; the transaction gets headroom over it.
      gasLimit: ((amount(quote.plan.gasLimit, 'gasLimit') * 13n) / 10n).toString(),
      simulation,
      to: checksum(call.to),
      value: call.value.toString(),
    };
  }
}

/** Stored data is checked as it is used: a malformed address is VALIDATION_002, anything else VALIDATION_001. */
function address(value: unknown, field: string): string {
  const normalized = normalizeAddress(value);
  if (!normalized) throw new AppError('VALIDATION_002', `stored quote has a malformed ${field} address`);
  return normalized;
}

function amount(value: unknown, field: string): bigint {
  if (typeof value !== 'string' || !/^\d+$/.test(value)) throw new AppError('VALIDATION_001', `stored quote has a malformed ${field}`);
  return BigInt(value);
}
