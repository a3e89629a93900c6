/**
 * What a devnet chain contains: tokens, pools and balances. Pure data so the deployer, the self-test
 * and the app's fixtures all agree on the same numbers.
 */

export type DexId = 'uniswap-v2' | 'sushiswap-v2';

export interface TokenSpec {
  symbol: string;
  name: string;
  decimals: number;
  /** A USD stablecoin (USDC, DAI): the chains file's `tokens[i].usdStable`. */
  usdStable: boolean;
}

/** Deployed from our MintableERC20, in this order (order fixes their addresses). */
export const MINTABLE_TOKENS: readonly TokenSpec[] = [
  { symbol: 'USDC', name: 'USD Coin', decimals: 6, usdStable: true },
  { symbol: 'DAI', name: 'Dai Stablecoin', decimals: 18, usdStable: true },
  { symbol: 'WBTC', name: 'Wrapped BTC', decimals: 8, usdStable: false },
  { symbol: 'LINK', name: 'ChainLink Token', decimals: 18, usdStable: false },
  { symbol: 'UNI', name: 'Uniswap', decimals: 18, usdStable: false },
];

export const WETH_TOKEN: TokenSpec = { symbol: 'WETH', name: 'Wrapped Ether', decimals: 18, usdStable: false };

/** Reference USD prices the pool reserves are built from. */
export const USD_PRICES: Readonly<Record<string, number>> = { WETH: 3000, WBTC: 60000, USDC: 1, DAI: 1, LINK: 15, UNI: 8 };

/** Keys in DevnetChain.contracts for each DEX's factory and router. */
export const DEX_CONTRACT_KEYS: Readonly<Record<DexId, { factory: string; router: string }>> = {
  'uniswap-v2': { factory: 'uniswapV2Factory', router: 'uniswapV2Router' },
  'sushiswap-v2': { factory: 'sushiswapV2Factory', router: 'sushiswapV2Router' },
};

export interface PoolSpec {
  dex: DexId;
  tokenA: string;
  tokenB: string;
  /** Human-readable initial reserves (parsed with each token's decimals). */
  amountA: string;
  amountB: string;
}

/**
 * Route shapes this graph guarantees (all pools are 0.3% V2 pools):
 *  - direct:  WETH->USDC (on both DEXes; sushi is shallower and ~0.3% dearer in USDC per ETH)
 *  - 2-hop:   DAI->WBTC (no DAI/WBTC pool; via WETH on uniswap or via USDC across DEXes)
 *  - 3-hop:   LINK->UNI; LINK only pairs with DAI and UNI only with WETH, so the shortest route is
 *             LINK->DAI (sushi) -> WETH -> UNI (uniswap), i.e. it necessarily crosses DEXes.
 */
export const POOLS: readonly PoolSpec[] = [
  { dex: 'uniswap-v2', tokenA: 'WETH', tokenB: 'USDC', amountA: '2000', amountB: '6000000' },
  { dex: 'uniswap-v2', tokenA: 'WETH', tokenB: 'DAI', amountA: '1000', amountB: '3000000' },
  { dex: 'uniswap-v2', tokenA: 'WETH', tokenB: 'WBTC', amountA: '500', amountB: '25' },
  { dex: 'uniswap-v2', tokenA: 'USDC', tokenB: 'DAI', amountA: '2000000', amountB: '2000000' },
  { dex: 'uniswap-v2', tokenA: 'UNI', tokenB: 'WETH', amountA: '150000', amountB: '400' },
  // 3009 USDC/ETH: 0.3% off the uniswap pool, so best-price routing has to compare DEXes.
  { dex: 'sushiswap-v2', tokenA: 'WETH', tokenB: 'USDC', amountA: '500', amountB: '1504500' },
  { dex: 'sushiswap-v2', tokenA: 'DAI', tokenB: 'LINK', amountA: '600000', amountB: '40000' },
  { dex: 'sushiswap-v2', tokenA: 'USDC', tokenB: 'WBTC', amountA: '1200000', amountB: '20' },
];

/** Uniswap V3 fee tiers (hundredths of a basis point) and their tick spacing, as the factory enables them. */
export const V3_TICK_SPACING: Readonly<Record<number, number>> = { 100: 1, 500: 10, 3000: 60, 10000: 200 };

/** DevnetChain.contracts keys of the Uniswap V3 deployment (factory; positions are added through the helper). */
export const V3_CONTRACT_KEYS = { factory: 'uniswapV3Factory', liquidityHelper: 'uniswapV3LiquidityHelper' } as const;

export interface V3PositionSpec {
  /** Price range in percent around the pool's initial price (e.g. [-5, 5]), or the full tick range. */
  range: readonly [number, number] | 'full';
  /** Value of the position at the initial price, in USD. */
  usd: number;
}

export interface V3PoolSpec {
  tokenA: string;
  tokenB: string;
  fee: 100 | 500 | 3000 | 10000;
  positions: readonly V3PositionSpec[];
}

/**
 * Uniswap V3 pools beside the V2 deployments, priced at USD_PRICES. Several fee tiers, and
 * concentrated positions at different ranges so swaps cross initialized ticks:
 *  - WETH/USDC 0.05%: deep liquidity within ±2% and ±10%, thin full range; the best venue for
 *    small WETH/USDC trades, worse than the V2 pools beyond its ranges (a split across both);
 *  - WETH/USDC 0.3%: full range only;
 *  - WBTC/WETH 0.3% and DAI/USDC 0.01%: narrow and wide positions;
 *  - UNI/WETH 1%: full range.
 */
export const V3_POOLS: readonly V3PoolSpec[] = [
  { tokenA: 'WETH', tokenB: 'USDC', fee: 500, positions: [{ range: [-2, 2], usd: 4_000_000 }, { range: [-10, 10], usd: 2_000_000 }, { range: 'full', usd: 200_000 }] },
  { tokenA: 'WETH', tokenB: 'USDC', fee: 3000, positions: [{ range: 'full', usd: 3_000_000 }] },
  { tokenA: 'WBTC', tokenB: 'WETH', fee: 3000, positions: [{ range: [-5, 5], usd: 1_500_000 }, { range: [-30, 20], usd: 1_000_000 }, { range: 'full', usd: 300_000 }] },
  { tokenA: 'DAI', tokenB: 'USDC', fee: 100, positions: [{ range: [-0.5, 0.5], usd: 3_000_000 }, { range: [-3, 3], usd: 500_000 }] },
  { tokenA: 'UNI', tokenB: 'WETH', fee: 10000, positions: [{ range: 'full', usd: 600_000 }] },
];

/** DevnetChain.contracts key of a V3 pool, e.g. `v3pool:WETH/USDC:500` (not `pool:`, which names V2 pairs). */
export function v3PoolKey(pool: Pick<V3PoolSpec, 'tokenA' | 'tokenB' | 'fee'>): string {
  return `v3pool:${pool.tokenA}/${pool.tokenB}:${pool.fee}`;
}

/** DevnetChain.contracts key of a pool, e.g. `pool:uniswap-v2:WETH/USDC`. */
export function poolKey(pool: Pick<PoolSpec, 'dex' | 'tokenA' | 'tokenB'>): string {
  return `pool:${pool.dex}:${pool.tokenA}/${pool.tokenB}`;
}

/** Balances each of anvil's default accounts 0..4 receives (WETH is wrapped by the deployer and transferred). */
export const TEST_ACCOUNT_GRANTS: Readonly<Record<string, string>> = {
  USDC: '1000000',
  DAI: '1000000',
  WBTC: '100',
  LINK: '10000',
  UNI: '10000',
  WETH: '100',
};

/** ETH balance set (anvil_setBalance) for every `fund` address. */
export const FUND_ETH = '10000';
/** The deployer pays for ~80 txs; give it far more than it can ever spend. */
export const DEPLOYER_ETH = '1000000';

/**
 * ERC-4626 venues (contracts/test/YieldVault.sol), each seeded by the deployer so it has a TVL and
 * a rising share price. `apyPercent` sets the vault's fixed yield per second from the seed
 * (seed × apy / year), so the measured APY starts there and falls as deposits dilute it. Two extra
 * USDC venues are deliberately unhealthy (one paused, one at its deposit cap) and look the most
 * attractive, so a health check that let them through would show.
 */
export interface VaultVenueSpec {
  venueId: string;
  asset: string;
  name: string;
  riskScore: number;
  feeBps: number;
  apyPercent: number;
  /** Human-readable assets the deployer deposits. */
  seed: string;
  /** Deposit cap equal to the seed: the vault is full from the start. */
  full?: boolean;
  paused?: boolean;
}

export const VAULT_VENUES: readonly VaultVenueSpec[] = [
  { venueId: 'usdc-steady', asset: 'USDC', name: 'Steady USDC', riskScore: 0.2, feeBps: 10, apyPercent: 4, seed: '100000' },
  { venueId: 'usdc-balanced', asset: 'USDC', name: 'Balanced USDC', riskScore: 0.5, feeBps: 50, apyPercent: 8, seed: '100000' },
  { venueId: 'usdc-max', asset: 'USDC', name: 'Max Yield USDC', riskScore: 0.8, feeBps: 100, apyPercent: 14, seed: '100000' },
  { venueId: 'usdc-paused', asset: 'USDC', name: 'Paused USDC', riskScore: 0.1, feeBps: 0, apyPercent: 20, seed: '100000', paused: true },
  { venueId: 'usdc-full', asset: 'USDC', name: 'Full USDC', riskScore: 0.1, feeBps: 0, apyPercent: 25, seed: '100000', full: true },
  { venueId: 'dai-steady', asset: 'DAI', name: 'Steady DAI', riskScore: 0.15, feeBps: 0, apyPercent: 3, seed: '100000' },
  { venueId: 'dai-balanced', asset: 'DAI', name: 'Balanced DAI', riskScore: 0.45, feeBps: 25, apyPercent: 6, seed: '100000' },
  { venueId: 'dai-max', asset: 'DAI', name: 'Max Yield DAI', riskScore: 0.75, feeBps: 75, apyPercent: 10, seed: '100000' },
  // No WBTC venue is conservative (risk <= 0.3).
  { venueId: 'wbtc-core', asset: 'WBTC', name: 'Core WBTC', riskScore: 0.4, feeBps: 20, apyPercent: 2, seed: '10' },
  { venueId: 'wbtc-basis', asset: 'WBTC', name: 'Basis WBTC', riskScore: 0.55, feeBps: 50, apyPercent: 5, seed: '10' },
  { venueId: 'wbtc-leveraged', asset: 'WBTC', name: 'Leveraged WBTC', riskScore: 0.9, feeBps: 150, apyPercent: 12, seed: '10' },
];

/** DevnetChain.contracts key of a venue's vault, e.g. `vault:usdc-steady`. */
export function vaultKey(venueId: string): string {
  return `vault:${venueId}`;
}

export const SECONDS_PER_YEAR = 31_536_000n;
