import { BullModule } from '@nestjs/bullmq';
import { Module } from '@nestjs/common';
import { AppConfig } from '../../config/app-config';
import { QUEUES } from '../../queue/queue-names';
import { registerQueues } from '../../queue/register-queues';
import { RelayCoreModule } from '../relay';
import { ApyService } from './domain/apy.service';
import { OrderTracker } from './domain/order-tracker.service';
import { OrderTrackingQueue } from './domain/order-tracking.queue';
import { PositionsService } from './domain/positions.service';
import { SettlementDelegates } from './domain/settlement-delegates';
import { VaultReader } from './domain/vault-reader.service';
import { VenueRegistry } from './domain/venue-registry';
import { BestSingleVenueSolver } from './solvers/best-single.solver';
import { DiversifiedSolver } from './solvers/diversified.solver';
import { LowestRiskSolver } from './solvers/lowest-risk.solver';
import { VAULT_SOLVERS } from './solvers/solver';
import { VaultBidStore } from './store/vault-bid.store';
import { VaultOrderStore } from './store/vault-order.store';
import { VaultPositionStore } from './store/vault-position.store';
import { VaultQuoteStore } from './store/vault-quote.store';
import { VaultShareSampleStore } from './store/vault-share-sample.store';

/** What the vault API and the vault workers share: venues, chain reads, APYs, solvers, order tracking. */
@Module({
  imports: [
    registerQueues(QUEUES.orders, QUEUES.vaultSamples),
    RelayCoreModule,
  ],
  providers: [
    VaultQuoteStore,
    VaultBidStore,
    VaultOrderStore,
    VaultPositionStore,
    VaultShareSampleStore,
    VenueRegistry,
    VaultReader,
    ApyService,
    SettlementDelegates,
    PositionsService,
    OrderTracker,
    OrderTrackingQueue,
    {
      provide: VAULT_SOLVERS,
      inject: [AppConfig],
      useFactory: (config: AppConfig) => [new BestSingleVenueSolver(), new DiversifiedSolver(config.VAULT_DIVERSIFIED_CAP_BPS), new LowestRiskSolver()],
    },
  ],
  exports: [VenueRegistry, VaultReader, ApyService, SettlementDelegates, OrderTracker, OrderTrackingQueue, VAULT_SOLVERS, VaultQuoteStore, VaultBidStore, VaultOrderStore, VaultPositionStore, RelayCoreModule, BullModule],
})
export class VaultCoreModule {}
