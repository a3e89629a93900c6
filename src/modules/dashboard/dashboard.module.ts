import { Module } from '@nestjs/common';
import { AccountsModule, AdminGuard } from '../accounts';
import { RelayCoreModule } from '../relay';
import { RelayersController } from './operator/relayers.controller';
import { RelayerWallets } from './operator/relayer-wallets.service';
import { RelayerWalletsModule } from '../relayer-wallets';
import { DashboardAssets } from './page/dashboard-assets';
import { DashboardPageController } from './page/dashboard-page.controller';
import { SpendService } from './team/spend.service';
import { TeamController } from './team/team.controller';
import { StatementController } from './team/statement.controller';

/** The web dashboard (/dashboard) and the reads only it needs: the caller's account, spend, relayer wallets. */
@Module({
  imports: [AccountsModule, RelayCoreModule, RelayerWalletsModule],
  controllers: [DashboardPageController, TeamController, StatementController, RelayersController],
  providers: [DashboardAssets, SpendService, RelayerWallets, AdminGuard],
})
export class DashboardModule {}
