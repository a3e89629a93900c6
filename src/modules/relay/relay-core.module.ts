import { BullModule } from '@nestjs/bullmq';
import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { QUEUES } from '../../queue/queue-names';
import { AccountsModule } from '../accounts/accounts.module';
import { ChainsModule } from '../chains/chains.module';
import { PricingModule } from '../pricing/pricing.module';
import { TxEventsModule } from '../tx-events/tx-events.module';
import { FeeOracle } from './core/fee-oracle.service';
import { Estimator } from './intake/estimator.service';
import { RegionResolver } from './intake/region-resolver';
import { SendQueue } from './pipeline/send-queue';
import { TxQueryService } from './http/tx-query.service';
import { RelayBroadcastEntity } from './store/relay-broadcast.entity';
import { RelayTransactionEntity } from './store/relay-transaction.entity';
import { SignerNonceEntity } from './store/signer-nonce.entity';
import { NonceManager } from './pipeline/nonce-manager.service';
import { SignerPool } from './core/signer-pool.service';
import { TopUpService } from './pipeline/top-up.service';
import { SettlementService } from './pipeline/settlement.service';

/** What both the API side and the worker side of the relay need. */
@Module({
  imports: [
    TypeOrmModule.forFeature([RelayTransactionEntity, RelayBroadcastEntity, SignerNonceEntity]),
    BullModule.registerQueue({ name: QUEUES.relaySend }, { name: QUEUES.reconciler }),
    AccountsModule,
    ChainsModule,
    PricingModule,
    TxEventsModule,
  ],
  providers: [RegionResolver, SignerPool, NonceManager, TopUpService, SettlementService, Estimator, FeeOracle, SendQueue, TxQueryService],
  exports: [RegionResolver, SignerPool, NonceManager, TopUpService, SettlementService, Estimator, SendQueue, TxQueryService, AccountsModule, ChainsModule, PricingModule, TxEventsModule, BullModule],
})
export class RelayCoreModule {}
