/**
 * What other modules may use of accounts: the module, its services and plain types. No ORM
 * entity and no SQL: the fragments other stores compose into one statement are in statements.ts.
 */
export { AccountsModule } from './accounts.module';
export { AdminGuard } from './admin/admin.guard';
export { AdminApi } from './admin/admin-api.decorator';
export { AdminAuditInterceptor } from './admin/audit/admin-audit.interceptor';
export { AdminAuditLog, cliActor } from './admin/audit/admin-audit-log.service';
export { AccountsService } from './domain/accounts.service';
export type { Account } from './domain/account';
export { toAccountView } from './domain/account-view';
export { ApiKeysService } from './domain/api-keys.service';
export type { AuthenticatedKey } from './domain/authenticated-key';
export { dailyConsumedMicro, utcDayStart } from './domain/daily-window';
export { LedgerService } from './domain/ledger.service';
export type { Balances, LedgerAudit } from './domain/ledger.service';
export { AccountLimitsDto } from './dto/admin.dto';
export type { AccountCounters } from './store/account-counters';
export type { BatchReservation, RaiseRequest, ReservationRequest } from './store/account.store';
export type { SpendBucket, SpendRow, StatementRow } from './store/ledger-entry.store';
export { ApiKeyCache } from './domain/api-key-cache';
export { LowBalanceMonitor } from './domain/low-balance-monitor';
export { domainAllowed, originHost } from './policy/domain-whitelist';
export { selectorOf, targetAllowed } from './policy/allowed-target';
export type { AllowedTarget, TargetCall } from './policy/allowed-target';
export { KeyRateLimitDto } from './dto/admin.dto';
export { AccountViewDto } from './dto/account-view.dto';
