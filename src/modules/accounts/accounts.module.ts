import { Module } from '@nestjs/common';
import { SecretBox } from '../../common/crypto/secret-box';
import { TxEventsModule } from '../tx-events';
import { AdminController } from './admin/admin.controller';
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
  controllers: [UserController, AdminController],
  providers: [AccountStore, ApiKeyStore, LedgerEntryStore, AccountsService, ApiKeysService, ApiKeyCache, LedgerService, AdminGuard, SecretBox, LowBalanceMonitor],
  exports: [AccountsService, ApiKeysService, ApiKeyCache, LedgerService, LowBalanceMonitor],
})
export class AccountsModule {}
