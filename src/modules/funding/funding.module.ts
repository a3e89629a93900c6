import { BullModule } from '@nestjs/bullmq';
import { Module } from '@nestjs/common';
import { SenderLocks } from '../../database/sender-lock';
import { QUEUES } from '../../queue/queue-names';
import { registerQueues } from '../../queue/register-queues';
import { AccountsModule } from '../accounts';
import { ChainsModule } from '../chains';
import { PricingModule } from '../pricing';
import { RelayCoreModule } from '../relay';
import { TxEventsModule } from '../tx-events';
import { DepositAddresses } from './domain/deposit-addresses.service';
import { DepositSweeper } from './domain/deposit-sweeper.service';
import { DepositWatcher } from './domain/deposit-watcher.service';
import { FundingService } from './domain/funding.service';
import { FundingController } from './http/funding.controller';
import { DepositAddressStore } from './store/deposit-address.store';
import { DepositCursorStore } from './store/deposit-cursor.store';
import { DepositStore } from './store/deposit.store';

/** Self-serve funding: deposit addresses, the watcher, the sweeper and their HTTP reads; loaded in every role. */
@Module({
  imports: [AccountsModule, ChainsModule, PricingModule, RelayCoreModule, TxEventsModule, registerQueues(QUEUES.deposits)],
  controllers: [FundingController],
  providers: [DepositAddressStore, DepositCursorStore, DepositStore, SenderLocks, DepositAddresses, DepositWatcher, DepositSweeper, FundingService],
  exports: [DepositWatcher, DepositSweeper, DepositAddresses, BullModule],
})
export class FundingModule {}
