/** What other modules may use of funding: the modules, the watcher and sweeper (tests and the CLI drive passes), the deposit addresses. */
export { FundingModule } from './funding.module';
export { FundingWorkerModule } from './funding-worker.module';
export { DepositWatcher } from './domain/deposit-watcher.service';
export type { WatchPass } from './domain/deposit-watcher.service';
export { DepositSweeper } from './domain/deposit-sweeper.service';
export { DepositAddresses } from './domain/deposit-addresses.service';
export { DepositKeys, DEPOSIT_PATH } from './domain/deposit-keys';
