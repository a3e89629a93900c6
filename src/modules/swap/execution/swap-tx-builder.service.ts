import { Injectable } from '@nestjs/common';
import { ZeroAddress } from 'ethers';
import { AppError } from '../../../common/errors/app-error';
import { normalizeAddress } from '../../../common/evm/address';
import type { StoredQuote } from '../quotes/stored-quote';
import type { TxView } from '../quotes/route-view';
import { checksum, NATIVE_TOKEN } from '../catalog/token-catalog.service';
import { SWAP_EXECUTOR_ABI } from './executor-abi';

/** What a caller of the executor may change from the stored quote (e.g. the gasless settler). */
export interface ExecutorCallOverrides {
  /** Total pulled from the payer, fee included; legs are rescaled to it. */
  amountIn?: bigint;
  receiver?: string;
  /** Default: the quote's minAmountOut, scaled with amountIn when that is overridden. */
  minAmountOut?: bigint;
  feeAmount?: bigint;
  feeRecipient?: string;
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
  executorCall(quote: StoredQuote, overrides: ExecutorCallOverrides = {}): ExecutorCall {
    const plan = quote.plan;
    const executor = address(plan.executor, 'executor');
    const tokenIn = address(plan.tokenIn, 'tokenIn');
    const tokenOut = address(plan.tokenOut, 'tokenOut');
    const receiver = address(overrides.receiver ?? plan.receiver, 'receiver');
    const feeRecipient = address(overrides.feeRecipient ?? plan.feeRecipient, 'feeRecipient');
    const quotedIn = amount(plan.amountIn, 'amountIn');
    const quotedFee = amount(plan.feeAmount, 'feeAmount');
    const amountIn = overrides.amountIn ?? quotedIn;
    // The fee keeps its rate when only the amount changes.
    const feeAmount = overrides.feeAmount ?? (quotedIn === 0n ? 0n : (quotedFee * amountIn) / quotedIn);
    if (amountIn <= 0n || feeAmount < 0n || feeAmount >= amountIn) throw new AppError('VALIDATION_001', 'amountIn must exceed feeAmount');
    const minAmountOut = overrides.minAmountOut ?? (amount(plan.minAmountOut, 'minAmountOut') * amountIn) / (quotedIn === 0n ? 1n : quotedIn);

    const swapIn = amountIn - feeAmount;
    const quotedLegs = plan.legs.map((leg) => amount(leg.amountIn, 'leg amountIn'));
    const quotedTotal = quotedLegs.reduce((a, b) => a + b, 0n);
    if (plan.legs.length === 0 || quotedTotal === 0n) throw new AppError('VALIDATION_001', 'stored quote has no route legs');
    // Rescale each leg to the new input; the rounding remainder goes to the first (largest) leg.
    const legAmounts = quotedLegs.map((a) => (a * swapIn) / quotedTotal);
    legAmounts[0] += swapIn - legAmounts.reduce((a, b) => a + b, 0n);

    const legs = plan.legs.map((leg, i) => ({
      amountIn: legAmounts[i],
      hops: leg.hops.map((hop) => {
        if (!Number.isInteger(hop.feeBps) || hop.feeBps < 0 || hop.feeBps >= 10_000) throw new AppError('VALIDATION_001', 'stored quote has a bad pool fee');
        return { pool: address(hop.pool, 'pool'), zeroForOne: Boolean(hop.zeroForOne), feeBps: hop.feeBps };
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
