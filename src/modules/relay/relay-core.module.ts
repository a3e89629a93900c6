import { BullModule } from '@nestjs/bullmq';
import { Module } from '@nestjs/common';
import { QUEUES } from '../../queue/queue-names';
import { registerQueues } from '../../queue/register-queues';
import { AccountsModule } from '../accounts';
import { ChainsModule } from '../chains';
import { PolicyCoreModule } from '../policies';
import { PricingModule } from '../pricing';
import { TxEventsModule } from '../tx-events';
import { FeeOracle } from './core/fee-oracle.service';
import { Estimator } from './intake/estimator.service';
import { RegionResolver } from './intake/region-resolver';
import { ReservedTargets } from './intake/reserved-targets';
import { SendQueue } from './pipeline/send/send-queue';
import { TxQueryService } from './http/tx-query.service';
import { RelayOutcomes } from './outcomes/relay-outcomes';
import { RelayBroadcastStore } from './store/relay-broadcast.store';
import { RelayTransactionStore } from './store/relay-transaction.store';
import { RelayerKeyStore } from './store/relayer-key.store';
import { KeyRotation } from './core/key-rotation.service';
import { SignerNonceStore } from './store/signer-nonce.store';
import { LegacyDerivationPathStore } from './store/legacy-derivation-path.store';
import { NonceManager } from './pipeline/keys/nonce-manager.service';
import { KeyEligibility } from './core/key-eligibility';
import { SignerPool } from './core/signer-pool.service';
import { TopUpService } from './pipeline/send/top-up.service';
import { SettlementService } from './pipeline/settle/settlement.service';
import { KeySlots } from './pipeline/keys/key-slots.service';
import { RedisSlotLedger, SLOT_LEDGER } from './pipeline/keys/slot-ledger';
import { FeeRaise } from './pipeline/send/fee-raise.service';

/** What both the API side and the worker side of the relay need. */
@Module({
  imports: [
    registerQueues(QUEUES.relaySend, QUEUES.reconciler),
    AccountsModule,
    ChainsModule,
    PricingModule,
    TxEventsModule,
    PolicyCoreModule,
  ],
  providers: [RelayOutcomes, RelayTransactionStore, RelayBroadcastStore, SignerNonceStore, RelayerKeyStore, LegacyDerivationPathStore, RegionResolver, SignerPool, KeyRotation, KeyEligibility, NonceManager, TopUpService, KeySlots, { provide: SLOT_LEDGER, useClass: RedisSlotLedger }, SettlementService, Estimator, FeeOracle, SendQueue, TxQueryService, ReservedTargets, FeeRaise],
  exports: [RelayOutcomes, RelayTransactionStore, RelayBroadcastStore, SignerNonceStore, RelayerKeyStore, LegacyDerivationPathStore, RegionResolver, SignerPool, KeyRotation, KeyEligibility, NonceManager, TopUpService, KeySlots, SettlementService, Estimator, SendQueue, TxQueryService, ReservedTargets, FeeRaise, AccountsModule, ChainsModule, PricingModule, TxEventsModule, PolicyCoreModule, BullModule],
})
export class RelayCoreModule {}
