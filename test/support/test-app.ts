import { INestApplication, Type } from '@nestjs/common';
import { NestExpressApplication } from '@nestjs/platform-express';
import { Test } from '@nestjs/testing';
import { Wallet } from 'ethers';
import request from 'supertest';
import { AppModule } from '../../src/app.module';
import { configureApp } from '../../src/bootstrap/configure-app';
import { AppLogger } from '../../src/common/trace/app-logger';
import { AppConfig, validateConfig } from '../../src/config/app-config';
import { TEST_ADMIN_TOKEN, testEnv } from './test-env';

export interface TestApp {
  app: INestApplication;
  http: () => ReturnType<typeof request>;
  close: () => Promise<void>;
}

/** The real application (same modules, same HTTP pipeline as main.ts) on an ephemeral port. */
export async function createTestApp(options: { env?: Record<string, string | undefined>; controllers?: Type[] } = {}): Promise<TestApp> {
  const env = { ...process.env, ...testEnv(), ...options.env };
  const config = validateConfig(env);
  const moduleRef = await Test.createTestingModule({ imports: [AppModule.forRole(config.APP_ROLE)], controllers: options.controllers ?? [] })
    .overrideProvider(AppConfig)
    .useValue(config)
    .compile();
  const app = moduleRef.createNestApplication<NestExpressApplication>({ bodyParser: false, logger: new AppLogger() });
  app.useLogger(process.env.TEST_LOGS ? new AppLogger() : ['error']);
  configureApp(app);
  await app.init();
  const server = app.getHttpServer();
  return {
    app,
    http: () => request(server),
    close: () => app.close(),
  };
}

export const adminAuth = { authorization: `Bearer ${TEST_ADMIN_TOKEN}` };

/** A fresh account (new random wallet) with an API key, through the admin API. */
export async function createAccount(t: TestApp, creditUsd = 100): Promise<{ userId: string; address: string; apiKey: string }> {
  const address = Wallet.createRandom().address;
  const res = await t.http().post('/admin/accounts').set(adminAuth).send({ address, creditUsd }).expect(201);
  return res.body.data;
}

/** ISO 8601 UTC with milliseconds, as every envelope timestamp must be. */
export const ISO_MS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
