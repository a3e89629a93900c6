import { Module } from '@nestjs/common';
import { AdminController } from './admin/admin.controller';
import { AdminGuard } from './admin/admin.guard';
import { AccountsService } from './domain/accounts.service';
import { ApiKeyCache } from './domain/api-key-cache';
import { ApiKeysService } from './domain/api-keys.service';
import { LedgerService } from './domain/ledger.service';
import { AccountStore } from './store/account.store';
import { ApiKeyStore } from './store/api-key.store';
import { LedgerEntryStore } from './store/ledger-entry.store';
import { UserController } from './user.controller';

@Module({
  controllers: [UserController, AdminController],
  providers: [AccountStore, ApiKeyStore, LedgerEntryStore, AccountsService, ApiKeysService, ApiKeyCache, LedgerService, AdminGuard],
  exports: [AccountsService, ApiKeysService, LedgerService],
})
export class AccountsModule {}
