import { Module } from '@nestjs/common';
import { AccountsModule, AdminGuard } from '../accounts';
import { RelayCoreModule } from '../relay';
import { QueueModule } from '../../queue/queue.module';
import { OperatorFiguresController } from './operator/operator-figures.controller';
import { OperatorFigures } from './operator/operator-figures.service';
import { PendingCountStore } from './operator/pending-count.store';
import { RelayersController } from './operator/relayers.controller';
import { RelayerWallets } from './operator/relayer-wallets.service';
import { RelayerWalletsModule } from '../relayer-wallets';
import { DashboardAssets } from './page/dashboard-assets';
import { DashboardPageController } from './page/dashboard-page.controller';
import { SpendService } from './team/spend.service';
import { TeamController } from './team/team.controller';
import { StatementController } from './team/statement.controller';

/** The web dashboard (/dashboard) and the reads only it needs: the caller's account, spend, relayer wallets, the operator's figures. */
@Module({
  imports: [AccountsModule, RelayCoreModule, RelayerWalletsModule, QueueModule],
  controllers: [DashboardPageController, TeamController, StatementController, RelayersController, OperatorFiguresController],
  providers: [DashboardAssets, SpendService, RelayerWallets, AdminGuard, OperatorFigures, PendingCountStore],
})
export class DashboardModule {}
