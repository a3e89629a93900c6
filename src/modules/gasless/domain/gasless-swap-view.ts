import type { GaslessSwapEntity } from '../entities/gasless-swap.entity';

/** interface.md "Gasless swap record". */
export interface GaslessSwapView {
  swapId: string;
  relayTxId: string;
  status: string;
  fromChain: number;
  toChain: number;
  fromToken: string;
  toToken: string;
  amountIn: string;
  amountOut: string;
  feeAmount: string;
  routeKind: string;
  executionTxHash?: string;
}

export function toSwapView(swap: GaslessSwapEntity): GaslessSwapView {
  return {
    swapId: swap.id,
    relayTxId: swap.relayTxId ?? '',
    status: swap.status,
    fromChain: swap.chainId,
    toChain: swap.chainId,
    fromToken: swap.fromToken,
    toToken: swap.toToken,
    amountIn: swap.amountIn,
    amountOut: swap.amountOut,
    feeAmount: swap.feeAmount,
    routeKind: swap.routeKind,
    ...(swap.executionTxHash ? { executionTxHash: swap.executionTxHash } : {}),
  };
}
