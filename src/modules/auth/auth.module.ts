import { Module } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { AccountsModule } from '../accounts';
import { ApiKeyGuard } from './api-key.guard';
import { JwtAuthModule } from './jwt/jwt-auth.module';
import { WalletLoginModule } from './login/wallet-login.module';

@Module({
  imports: [AccountsModule, JwtAuthModule, WalletLoginModule],
  providers: [{ provide: APP_GUARD, useClass: ApiKeyGuard }],
})
export class AuthModule {}
