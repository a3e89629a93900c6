import { Module } from '@nestjs/common';
import { AccountsModule } from '../../accounts';
import { ChainsModule } from '../../chains';
import { RelayBroadcastStore } from '../store/relay-broadcast.store';
import { RelayTransactionStore } from '../store/relay-transaction.store';
import { ChainAuditService } from './chain-audit.service';

/** The chain-aware audit with just the stores and chains it reads: the API and the admin CLI load it. */
@Module({
  imports: [AccountsModule, ChainsModule],
  providers: [RelayTransactionStore, RelayBroadcastStore, ChainAuditService],
  exports: [ChainAuditService],
})
export class RelayAuditModule {}
