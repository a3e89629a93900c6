/** A token as it appears inside a route (interface.md, Route: fromToken, toToken, gasToken). */
export interface RouteTokenView {
  address: string;
  chain: number;
  decimals: number;
  name: string;
  priceUsd: number;
  symbol: string;
  icon?: string;
}

export interface RouteStepView {
  amount: string;
  amountOut: string;
  fromToken: string;
  toToken: string;
  provider: { name: string; type: string };
  type: 'swap' | 'bridge';
}

/** interface.md "Route (quote candidate)". */
export interface RouteView {
  amount: string;
  amountOut: string;
  amountOutUsd: number;
  amountUsd: number;
  expiry: number;
  fees: { integratorFee: string; integratorFeeUsd: number; routeFee: string; routeFeeUsd: number };
  fromToken: RouteTokenView;
  toToken: RouteTokenView;
  gasFee: { gasFee: string; gasFeeUsd: number; gasLimit: string; gasToken: RouteTokenView; gasPrice: string };
  minAmountOut: string;
  minAmountOutUsd: number;
  path: RouteStepView[];
  providers: Array<{ name: string; type: string }>;
  quoteId: string;
  receiver: string;
  sender: string;
  slippage: number;
  estimatedTimeMs: number;
  routeKind: 'sameChainSwap' | 'crossChainSwap' | 'bridge';
  integratorId?: string;
}

/** Executable transaction (interface.md `Tx`). */
export interface TxView {
  allowanceTarget: string;
  chain: number;
  data: string;
  expiry: number;
  gasLimit: string;
  simulation: boolean;
  to: string;
  value: string;
}

/** USD figures are JSON numbers; six decimals is below a cent's precision for any amount shown. */
export const usd = (value: number | null): number => (value === null || !Number.isFinite(value) ? 0 : Math.round(value * 1e6) / 1e6);
