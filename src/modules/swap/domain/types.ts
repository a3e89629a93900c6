/** Pool math a DEX deployment uses. */
export type DexType = 'uniswap-v2' | 'uniswap-v3';

/** A DEX deployment the router may use; one provider per deployment (decisions.md). */
export interface DexProvider {
  key: string;
  name: string;
  type: DexType;
  factory: string;
  /** LP fee in basis points for V2 deployments; V3 pools carry their own fee tier (unused, 0). */
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

interface PoolCommon {
  address: string;
  provider: DexProvider;
  /** token0 < token1, as the factories sort them. */
  token0: string;
  token1: string;
  /**
   * V2: the reserves. V3: the virtual reserves of the active liquidity at the current price
   * (L/√P and L·√P), which give the spot price and a depth for ordering pools; swaps on V3
   * pools never use them (exact tick math does).
   */
  reserve0: bigint;
  reserve1: bigint;
}

/** A constant-product pool. */
export interface V2PoolState extends PoolCommon {
  kind: 'v2';
}

/** An initialized tick of a V3 pool. */
export interface V3Tick {
  index: number;
  liquidityNet: bigint;
  /** A tick stays initialized (a swap step boundary) while its gross liquidity is positive, even at zero net. */
  liquidityGross: bigint;
}

/** A concentrated-liquidity pool (Uniswap V3): what the swap loop reads. */
export interface V3PoolState extends PoolCommon {
  kind: 'v3';
  /** Fee in hundredths of a basis point (500 = 0.05%). */
  fee: number;
  tickSpacing: number;
  sqrtPriceX96: bigint;
  tick: number;
  liquidity: bigint;
  /** Initialized ticks, ascending by index. */
  ticks: V3Tick[];
}

export type PoolState = V2PoolState | V3PoolState;

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
  /** What this leg delivers when the legs run in order (earlier legs move shared pools first). */
  amountOut: bigint;
  /** Input of each hop and the leg's output, in order (hopAmounts[0] = amountIn). */
  hopAmounts: bigint[];
  /** Initialized ticks each hop crosses (0 for V2 hops), for the gas model. */
  ticksCrossed?: number[];
}

/**
 * What the router found for one request. Legs run in order on the same pools (the executor
 * does exactly that), so legs may share pools: each leg's figures are simulated on the pool
 * states the earlier legs left.
 */
export interface RoutePlan {
  tokenIn: string;
  tokenOut: string;
  amountIn: bigint;
  amountOut: bigint;
  legs: Leg[];
}
