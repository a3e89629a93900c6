import { Module } from '@nestjs/common';
import { AccountsModule } from '../../accounts';
import { LoginMessagesStore } from './login-messages.store';
import { WalletLoginController } from './wallet-login.controller';
import { WalletLoginService } from './wallet-login.service';

/** POST /api/auth/message and /api/auth/verify; tokens come from the global JwtAuthModule. */
@Module({
  imports: [AccountsModule],
  controllers: [WalletLoginController],
  providers: [WalletLoginService, LoginMessagesStore],
})
export class WalletLoginModule {}
