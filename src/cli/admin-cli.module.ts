import { Module } from '@nestjs/common';
import { ConfigModule } from '../config/config.module';
import { DatabaseModule } from '../database/database.module';
import { AccountsModule } from '../modules/accounts/accounts.module';

/** Just what the operator commands need: no HTTP, no queues, no chains. */
@Module({ imports: [ConfigModule, DatabaseModule, AccountsModule] })
export class AdminCliModule {}
