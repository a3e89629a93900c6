import { Module } from '@nestjs/common';
import { SenderLocks } from '../../database/sender-lock';
import { RelayCoreModule } from '../relay';
import { OperatorAlerts } from './domain/operator-alerts.service';
import { RelayerWalletsService } from './domain/relayer-wallets.service';
import { TreasuryTopUps } from './domain/treasury-top-ups.service';
import { RelayerTopUpStore } from './store/relayer-top-up.store';

/** Relayer key balances, floors, treasury top-ups and operator alerts; loaded in every role (top-ups only outside `api`). */
@Module({
  imports: [RelayCoreModule],
  providers: [RelayerTopUpStore, SenderLocks, OperatorAlerts, TreasuryTopUps, RelayerWalletsService],
  exports: [RelayerWalletsService, OperatorAlerts],
})
export class RelayerWalletsModule {}
