export interface DevnetToken {
  symbol: string;
  name: string;
  address: string;
  decimals: number;
  /** True for the USD stablecoins (USDC, DAI). */
  usdStable?: boolean;
  /** A LOCAL_EXTRA_POOLS token: listed in devnet.json, left out of the chains file's catalog (its pools are discovered). */
  extra?: boolean;
}

export interface DevnetChain {
  chainId: number;
  name: string;
  rpcUrl: string;
  /** weth, permit2, uniswapV2Factory/Router, sushiswapV2Factory/Router, `pool:<dex>:<A>/<B>` per V2 pool, uniswapV3Factory, uniswapV3LiquidityHelper, `v3pool:<A>/<B>:<fee>` per V3 pool, settlementDelegate, `vault:<venueId>` per venue, swapExecutor, gaslessSettler, nativeUsdFeed, tickLens, bridgeSpoke. */
  contracts: Record<string, string>;
  /** WETH first, then the mintable test tokens (then LOCAL_EXTRA_POOLS' XT<i> tokens). */
  tokens: DevnetToken[];
  /** LOCAL_EXTRA_POOLS deployed on this chain; the chains file then discovers pools from logs. */
  extraPools?: number;
}
