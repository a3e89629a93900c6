import 'reflect-metadata';
import type { INestApplication } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { OpenAPIObject } from '@nestjs/swagger';

/**
 * The OpenAPI document without a database, Redis or chain: Nest's preview mode builds the module
 * graph and routes without instantiating providers, so nothing connects. The configuration is
 * still validated when the modules load, hence the placeholders (never used to connect).
 */
export async function offlineOpenApiDocument(): Promise<OpenAPIObject> {
  const { buildOpenApiDocument } = await import('../../src/bootstrap/openapi-document');
  // The exported document (the SDK's) names the local stack's origin; a deployment serves its own PUBLIC_ORIGIN at /docs-json.
  return withOfflineApp((app) => buildOpenApiDocument(app, 'http://localhost:3000'));
}

/** `use` on the api role's application in preview mode: routes and metadata, no connections. */
export async function withOfflineApp<T>(use: (app: INestApplication) => T | Promise<T>): Promise<T> {
  const placeholders: Record<string, string> = {
    NODE_ENV: 'test',
    APP_ROLE: 'all',
    DATABASE_URL: 'postgres://openapi@127.0.0.1:1/openapi',
    REDIS_URL: 'redis://127.0.0.1:1',
    CHAINS_FILE: 'openapi-export-has-no-chains.json',
    JWT_SECRET: 'openapi-export-placeholder-secret-0123456789',
    RELAYER_MNEMONIC: 'test test test test test test test test test test test junk',
    AUTH_MNEMONIC: 'abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about',
  };
  const saved = { ...process.env };
  Object.assign(process.env, placeholders);
  try {
    const { AppModule } = await import('../../src/app.module');
    // The api role: every controller, and none of the worker modules (they serve nothing).
    const app = await NestFactory.create(AppModule.forRole('api'), { preview: true, logger: false, abortOnError: false });
    try {
      return await use(app);
    } finally {
      await app.close();
    }
  } finally {
    for (const key of Object.keys(placeholders)) {
      if (saved[key] === undefined) delete process.env[key];
      else process.env[key] = saved[key];
    }
  }
}

/** The document as written to packages/sdk/openapi.json (stable text, so CI can compare it). */
export const serializeDocument = (doc: OpenAPIObject): string => `${JSON.stringify(doc, null, 2)}\n`;
