/** A DEX deployment the router may use; one provider per deployment (decisions.md). */
export interface DexProvider {
  key: string;
  name: string;
  type: 'uniswap-v2';
  factory: string;
  feeBps: number;
}

/** Catalog token; addresses are lowercase inside the swap module. The zero address is the native currency. */
export interface TokenInfo {
  chainId: number;
  address: string;
  symbol: string;
  name: string;
  decimals: number;
  logoUrl: string;
}

/** A constant-product pool; token0 < token1 as V2 factories sort them. */
export interface PoolState {
  address: string;
  provider: DexProvider;
  token0: string;
  token1: string;
  reserve0: bigint;
  reserve1: bigint;
}

export interface Hop {
  pool: PoolState;
  tokenIn: string;
  tokenOut: string;
}

/** One chain of hops from tokenIn to tokenOut. */
export interface Path {
  hops: Hop[];
}

/** A path with an amount: one leg of a (possibly split) route. */
export interface Leg {
  path: Path;
  amountIn: bigint;
  amountOut: bigint;
}

/** What the router found for one request: the legs share no pool, so their outputs add up exactly. */
export interface RoutePlan {
  tokenIn: string;
  tokenOut: string;
  amountIn: bigint;
  amountOut: bigint;
  legs: Leg[];
}
