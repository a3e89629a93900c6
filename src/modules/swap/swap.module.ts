import { Module } from '@nestjs/common';
import { ChainsModule } from '../chains';
import { PricingModule } from '../pricing';
import { RateLimitModule } from '../rate-limit';
import { TokenCatalog } from './catalog/token-catalog.service';
import { SwapTxBuilder } from './execution/swap-tx-builder.service';
import { PoolIndexer } from './indexer/pool-indexer.service';
import { PoolDiscovery } from './indexer/pool-discovery.service';
import { PoolSnapshotStore } from './indexer/pool-snapshot.store';
import { DexCursorStore } from './indexer/store/dex-cursor.store';
import { SwapPoolStore } from './indexer/store/swap-pool.store';
import { SwapTokenStore } from './indexer/store/swap-token.store';
import { CrossChainRoutes } from './quotes/cross-chain';
import { QuoteStore } from './quotes/quote-store.service';
import { SwapQuoteService } from './quotes/swap-quote.service';
import { RouteFinder } from './routing/route-finder.service';
import { SwapStatusController } from './swap-status.controller';
import { SwapController } from './swap.controller';
import { TokensController } from './tokens.controller';
import { SwapStatusService } from './tracking/swap-status.service';

/**
 * Swap routing: token catalog, pool indexer, router, quotes, executor transactions, tracking.
 * Other features (gasless) use RouteFinder, QuoteStore, SwapTxBuilder and TokenCatalog.
 */
@Module({
  imports: [ChainsModule, PricingModule, RateLimitModule],
  controllers: [SwapController, TokensController, SwapStatusController],
  providers: [PoolSnapshotStore, SwapPoolStore, SwapTokenStore, DexCursorStore, PoolDiscovery, PoolIndexer, TokenCatalog, RouteFinder, QuoteStore, SwapTxBuilder, SwapQuoteService, SwapStatusService, CrossChainRoutes],
  exports: [PoolIndexer, TokenCatalog, RouteFinder, QuoteStore, SwapTxBuilder, SwapQuoteService, CrossChainRoutes],
})
export class SwapModule {}
