import 'reflect-metadata';
// Before anything requires http, express, pg or ioredis (a no-op unless OTEL_EXPORTER_OTLP_ENDPOINT is set).
import './common/trace/otel-bootstrap';
import { Logger } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { NestExpressApplication } from '@nestjs/platform-express';
import type { AddressInfo } from 'node:net';
import { AppModule } from './app.module';
import { configureApp } from './bootstrap/configure-app';
import { AppLogger } from './common/trace/app-logger';
import { AppConfig, validateConfig } from './config/app-config';
import { OpsListener } from './modules/health';

async function bootstrap(): Promise<void> {
  // The role picks the modules, so the config is validated before the application is composed.
  const { APP_ROLE } = validateConfig(process.env);
  const app = await NestFactory.create<NestExpressApplication>(AppModule.forRole(APP_ROLE), {
    bodyParser: false,
    logger: new AppLogger(),
    // Let startup errors (bad config) reach the handler below instead of aborting the process.
    abortOnError: false,
  });
  configureApp(app);
  const config = app.get(AppConfig);
  if (config.APP_ROLE === 'worker') {
    await app.init();
    // No API listener: the operations listener (METRICS_PORT, else PORT) is how it is watched.
    Logger.log(`worker started; /metrics, /livez and /readyz on port ${app.get(OpsListener).port}`, 'Bootstrap');
    return;
  }
  await app.listen(config.PORT);
  const address = app.getHttpServer().address() as AddressInfo | null;
  Logger.log(`API listening on http://localhost:${address?.port ?? config.PORT} (docs at /docs), role ${config.APP_ROLE}`, 'Bootstrap');
}

bootstrap().catch((err: unknown) => {
  // Config errors name the variable; print them plainly and stop.
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
