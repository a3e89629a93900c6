import { registerQueues } from '../../queue/register-queues';
import { BullModule } from '@nestjs/bullmq';
import { Module, OnModuleInit } from '@nestjs/common';
import { QUEUES } from '../../queue/queue-names';
import { AccountsModule } from '../accounts';
import { ChainsModule } from '../chains';
import { PricingModule } from '../pricing';
import { RelayCoreModule, RelayModule } from '../relay';
import { RelayerWalletsModule } from '../relayer-wallets';
import { CrossChainRoutes, SwapModule } from '../swap';
import { BridgeAdminController } from './bridge-admin.controller';
import { BridgeFiller } from './domain/bridge-filler.service';
import { BridgeInventory } from './domain/bridge-inventory.service';
import { BridgeQuotes } from './domain/bridge-quotes.service';
import { BridgeStatus } from './domain/bridge-status.service';
import { BridgeCursorStore } from './store/bridge-cursor.store';
import { BridgeDepositStore } from './store/bridge-deposit.store';

/**
 * The bridge of the cross-chain swaps: quotes and status behind the swap API (registered with
 * the swap module's CrossChainRoutes), the filler's passes, the operator's view. Every role.
 */
@Module({
  imports: [AccountsModule, ChainsModule, PricingModule, RelayCoreModule, RelayModule, RelayerWalletsModule, SwapModule, registerQueues(QUEUES.bridge)],
  controllers: [BridgeAdminController],
  providers: [BridgeCursorStore, BridgeDepositStore, BridgeInventory, BridgeQuotes, BridgeStatus, BridgeFiller],
  exports: [BridgeFiller, BridgeInventory, BridgeStatus, BullModule],
})
export class BridgeModule implements OnModuleInit {
  constructor(
    private readonly routes: CrossChainRoutes,
    private readonly quotes: BridgeQuotes,
    private readonly status: BridgeStatus,
  ) {}

  onModuleInit(): void {
    this.routes.register({
      quote: (caller, q, options) => this.quotes.quote(caller, q, options),
      transaction: (quote, simulation) => this.quotes.transaction(quote, simulation),
      status: (txHash, chainId, userAddress) => this.status.status(txHash, chainId, userAddress),
      fromReceipt: (chainId, receipt, userAddress) => this.status.fromReceipt(chainId, receipt, userAddress),
    });
  }
}
