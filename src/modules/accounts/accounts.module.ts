import { Module } from '@nestjs/common';
import { SecretBox } from '../../common/crypto/secret-box';
import { TxEventsModule } from '../tx-events';
import { AdminAuditLogController } from './admin/admin-audit-log.controller';
import { AdminController } from './admin/admin.controller';
import { AdminAuditLog } from './admin/audit/admin-audit-log.service';
import { AdminAuditStore } from './admin/audit/admin-audit.store';
import { AdminGuard } from './admin/admin.guard';
import { AccountsService } from './domain/accounts.service';
import { ApiKeyCache } from './domain/api-key-cache';
import { ApiKeysService } from './domain/api-keys.service';
import { LedgerService } from './domain/ledger.service';
import { LowBalanceMonitor } from './domain/low-balance-monitor';
import { AccountStore } from './store/account.store';
import { ApiKeyStore } from './store/api-key.store';
import { LedgerEntryStore } from './store/ledger-entry.store';
import { UserController } from './user.controller';

@Module({
  imports: [TxEventsModule],
  controllers: [UserController, AdminController, AdminAuditLogController],
  providers: [AccountStore, ApiKeyStore, LedgerEntryStore, AccountsService, ApiKeysService, ApiKeyCache, LedgerService, AdminGuard, SecretBox, LowBalanceMonitor, AdminAuditStore, AdminAuditLog],
  exports: [AccountsService, ApiKeysService, ApiKeyCache, LedgerService, LowBalanceMonitor, AdminAuditLog],
})
export class AccountsModule {}
