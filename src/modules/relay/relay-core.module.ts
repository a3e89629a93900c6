import { BullModule } from '@nestjs/bullmq';
import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { QUEUES } from '../../queue/queue-names';
import { AccountsModule } from '../accounts/accounts.module';
import { ChainsModule } from '../chains/chains.module';
import { PricingModule } from '../pricing/pricing.module';
import { TxEventsModule } from '../tx-events/tx-events.module';
import { FeeOracle } from './domain/fee-oracle.service';
import { Estimator } from './domain/estimator.service';
import { RegionResolver } from './domain/region-resolver';
import { SendQueue } from './domain/send-queue';
import { TxQueryService } from './domain/tx-query.service';
import { RelayBroadcastEntity } from './entities/relay-broadcast.entity';
import { RelayTransactionEntity } from './entities/relay-transaction.entity';
import { SignerNonceEntity } from './entities/signer-nonce.entity';
import { NonceManager } from './signers/nonce-manager.service';
import { SignerPool } from './signers/signer-pool.service';
import { TopUpService } from './signers/top-up.service';
import { SettlementService } from './sending/settlement.service';

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
