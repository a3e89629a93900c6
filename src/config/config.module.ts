import { Global, Module } from '@nestjs/common';
import { ConfigModule as NestConfigModule } from '@nestjs/config';
import { AppConfig, validateConfig } from './app-config';

/** Loads `.env` (if present, taking precedence over the local stack's file), validates it once, and offers the typed AppConfig everywhere. */
@Global()
@Module({
  imports: [
    // .local/local.env is written by the local stack (npm start) so the admin CLI finds the same settings.
    // Tests (NODE_ENV=test) read only their own environment, never a developer's files.
    NestConfigModule.forRoot({
      isGlobal: true,
      cache: true,
      envFilePath: ['.env', '.local/local.env'],
      ignoreEnvFile: process.env.NODE_ENV === 'test',
      validate: validateConfig,
    }),
  ],
  providers: [{ provide: AppConfig, useFactory: () => validateConfig(process.env) }],
  exports: [AppConfig],
})
export class ConfigModule {}
