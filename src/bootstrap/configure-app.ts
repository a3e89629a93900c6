import { INestApplication, ShutdownSignal } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { EnvelopeInterceptor } from '../common/envelope/envelope.interceptor';
import { AllExceptionsFilter } from '../common/http/all-exceptions.filter';
import { corsMiddleware, methodsServed, parseCorsOrigins } from '../common/http/cors.middleware';
import { applyHttpServerLimits } from '../common/http/http-server-limits';
import { jsonBodyMiddleware } from '../common/http/json-body.middleware';
import { nulGuardMiddleware } from '../common/http/nul-guard.middleware';
import { requestLogMiddleware } from '../common/http/request-log.middleware';
import { createValidationPipe } from '../common/http/validation.pipe';
import { traceIdMiddleware } from '../common/trace/trace-id.middleware';
import { AppConfig } from '../config/app-config';
import { RedisIoAdapter } from '../modules/events';
import { MetricsService } from '../modules/metrics';
import { httpMetricsMiddleware } from '../modules/metrics/http-metrics.middleware';
import { setupSwagger } from './swagger';

/** Everything main.ts and the tests both need, so tests exercise the real HTTP pipeline. */
export function configureApp(app: INestApplication): void {
  const config = app.get(AppConfig);
  const express = app as NestExpressApplication;
  express.disable('x-powered-by');
  // No ETag: Express hashes every response body for it (about 1 % of the CPU in a profile of GET
  // requests), and the API's answers are per-request state no client revalidates (docs/decisions.md).
  express.set('etag', false);
  // req.ip: X-Forwarded-For only from the proxies TRUST_PROXY names; otherwise the socket's address.
  express.set('trust proxy', config.TRUST_PROXY ? config.TRUST_PROXY.split(',').map((p) => p.trim()) : false);
  // Trace id first, so every later failure (including body parsing) reports it.
  express.use(traceIdMiddleware);
  // Before the body parser: a preflight carries no body and needs no authentication.
  const router = (express.getHttpAdapter().getInstance() as unknown as { router: { stack: Parameters<typeof methodsServed>[0] } }).router;
  express.use(corsMiddleware(parseCorsOrigins(config.CORS_ORIGINS), () => router.stack));
  if (config.ACCESS_LOG) express.use(requestLogMiddleware);
  express.use(jsonBodyMiddleware({ limit: config.BODY_LIMIT, maxDepth: config.BODY_MAX_DEPTH }));
  express.use(nulGuardMiddleware);
  // Last before routing, where Nest would have put a module's middleware.
  express.use(httpMetricsMiddleware(app.get(MetricsService)));
  applyHttpServerLimits(express.getHttpServer(), {
    headersTimeoutMs: config.HTTP_HEADERS_TIMEOUT_MS,
    requestTimeoutMs: config.HTTP_REQUEST_TIMEOUT_MS,
    keepAliveTimeoutMs: config.HTTP_KEEP_ALIVE_TIMEOUT_MS,
  });
  app.useGlobalPipes(createValidationPipe());
  app.useGlobalFilters(new AllExceptionsFilter());
  app.useGlobalInterceptors(new EnvelopeInterceptor(app.get(Reflector)));
  app.useWebSocketAdapter(new RedisIoAdapter(app, config));
  // Every shutdown signal but SIGHUP: that one is the config reload (SignerPool.reload: new relayer keys).
  app.enableShutdownHooks(Object.values(ShutdownSignal).filter((s) => s !== ShutdownSignal.SIGHUP));
  setupSwagger(app);
}
