/** What other modules may use of accounts: the module, its services, the entity's shape and the ledger's statement fragments. */
export { AccountsModule } from './accounts.module';
export { AdminGuard } from './admin/admin.guard';
export { AccountsService } from './domain/accounts.service';
export { toAccountView } from './domain/account-view';
export { ApiKeysService } from './domain/api-keys.service';
export type { AuthenticatedKey } from './domain/authenticated-key';
export { dailyConsumedMicro, utcDayStart } from './domain/daily-window';
export { LedgerService } from './domain/ledger.service';
export type { Balances, LedgerAudit } from './domain/ledger.service';
export { AccountLimitsDto } from './dto/admin.dto';
export type { AccountCounters } from './store/account-counters';
export { AccountEntity } from './store/account.entity';
export { ApiKeyEntity } from './store/api-key.entity';
export { LedgerEntryEntity } from './store/ledger-entry.entity';
export { maxRetriesOf, reservationCte, settleCoveredUpdate } from './store/account.store';
export type { ReservationRequest } from './store/account.store';
export { reserveEntryCte, settleEntryCte } from './store/ledger-entry.store';
