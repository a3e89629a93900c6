/** What other modules may use of relayer wallets: the balance snapshot (health, operator dashboards). */
export { RelayerWalletsModule } from './relayer-wallets.module';
export { RelayerWalletsService } from './domain/relayer-wallets.service';
export { OperatorAlerts } from './domain/operator-alerts.service';
export type { ChainWalletsView, RelayerKeyView } from './domain/relayer-wallets.service';
