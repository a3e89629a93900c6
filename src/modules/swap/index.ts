/** What other features may use from the swap module. */
export { SwapModule } from './swap.module';
export { RouteFinder, searchPlans } from './routing/route-finder.service';
export type { RouteRequest, RouteCandidate, FoundRoutes } from './routing/route-finder.service';
export { parseRouteMode } from './routing/route-ranking';
export type { RouteMode } from './routing/route-ranking';
export { QuoteStore } from './quotes/quote-store.service';
export type { StoredQuote, ExecutionPlan, PlannedHop } from './quotes/stored-quote';
export type { RouteView, TxView, RouteTokenView } from './quotes/route-view';
export { SwapQuoteService, DEFAULT_SLIPPAGE_PERCENT } from './quotes/swap-quote.service';
export { SwapTxBuilder } from './execution/swap-tx-builder.service';
export type { ExecutorCall, ExecutorCallOverrides } from './execution/swap-tx-builder.service';
export { SWAP_EXECUTOR_ABI } from './execution/executor-abi';
export { TokenCatalog, NATIVE_TOKEN } from './catalog/token-catalog.service';
export { PoolIndexer } from './indexer/pool-indexer.service';
export type { TokenInfo } from './domain/types';
export { MAX_FEE_BPS } from './dto/swap-requests.dto';
export { usd } from './quotes/route-view';
export { RouteDto } from './dto/swap-responses.dto';
