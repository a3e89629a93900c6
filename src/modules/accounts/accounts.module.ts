import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AdminController } from './admin/admin.controller';
import { AdminGuard } from './admin/admin.guard';
import { AccountsService } from './domain/accounts.service';
import { ApiKeyCache } from './domain/api-key-cache';
import { ApiKeysService } from './domain/api-keys.service';
import { LedgerService } from './domain/ledger.service';
import { AccountEntity } from './entities/account.entity';
import { ApiKeyEntity } from './entities/api-key.entity';
import { LedgerEntryEntity } from './entities/ledger-entry.entity';
import { UserController } from './user.controller';

@Module({
  imports: [TypeOrmModule.forFeature([AccountEntity, ApiKeyEntity, LedgerEntryEntity])],
  controllers: [UserController, AdminController],
  providers: [AccountsService, ApiKeysService, ApiKeyCache, LedgerService, AdminGuard],
  exports: [AccountsService, ApiKeysService, ApiKeyCache, LedgerService],
})
export class AccountsModule {}
