import type { RouteView } from './route-view';

/** A hop as the executor runs it. */
export interface PlannedHop {
  pool: string;
  tokenIn: string;
  tokenOut: string;
  zeroForOne: boolean;
  /** V2 LP fee in basis points; 0 for V3 (the pool's own fee applies). */
  feeBps: number;
  /** Pool kind; absent in quotes stored before V3 support (V2 then). */
  kind?: 'v2' | 'v3';
  provider: string;
}

/** Everything needed to rebuild the executor call later, in strings so it survives JSON. */
export interface ExecutionPlan {
  chainId: number;
  executor: string;
  /** Lowercase; the zero address is the native currency. */
  tokenIn: string;
  tokenOut: string;
  /** Pulled from the payer, fee included. */
  amountIn: string;
  feeAmount: string;
  feeRecipient: string;
  amountOut: string;
  minAmountOut: string;
  sender: string;
  receiver: string;
  gasLimit: string;
  legs: Array<{ amountIn: string; amountOut: string; hops: PlannedHop[] }>;
}

export interface StoredQuote {
  quoteId: string;
  /** Account that asked for it; only that account may build it. */
  userId: string;
  /** Unix seconds. */
  expiry: number;
  createdAt: number;
  /** interface.md: 0 direct transfer, 1 native value, 2 permit, 3 permit with witness; null when not given. */
  acquisitionMode: number | null;
  integratorId: string | null;
  route: RouteView;
  plan: ExecutionPlan;
  /** A cross-chain quote's own plan (the bridge module's shape); absent on same-chain quotes. */
  crossChain?: Record<string, unknown>;
}
