/* eslint-disable @typescript-eslint/no-require-imports */
import type { IncomingMessage } from 'node:http';
import { markTracingEnabled } from './tracing';

/**
 * OpenTelemetry traces, off by default: the SDK (and its instrumentations: incoming HTTP,
 * Express, pg, ioredis) is loaded and started only when OTEL_EXPORTER_OTLP_ENDPOINT (or
 * OTEL_EXPORTER_OTLP_TRACES_ENDPOINT) is set, exporting OTLP/HTTP JSON. It must run before the
 * application's modules are required, so main.ts imports it first. The standard OTEL_* variables
 * (service name, sampler, batch delay, headers) apply as the SDK reads them.
 */
let shutdown: (() => Promise<void>) | undefined;

const OPS_PATHS = new Set(['/metrics', '/livez', '/readyz']);

export function startTracingFromEnv(env: Readonly<NodeJS.ProcessEnv>): boolean {
  if (shutdown || !(env.OTEL_EXPORTER_OTLP_ENDPOINT || env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT)) return false;
  const { NodeSDK } = require('@opentelemetry/sdk-node') as typeof import('@opentelemetry/sdk-node');
  const { OTLPTraceExporter } = require('@opentelemetry/exporter-trace-otlp-http') as typeof import('@opentelemetry/exporter-trace-otlp-http');
  const { resourceFromAttributes } = require('@opentelemetry/resources') as typeof import('@opentelemetry/resources');
  const { HttpInstrumentation } = require('@opentelemetry/instrumentation-http') as typeof import('@opentelemetry/instrumentation-http');
  const { ExpressInstrumentation, ExpressLayerType } = require('@opentelemetry/instrumentation-express') as typeof import('@opentelemetry/instrumentation-express');
  const { PgInstrumentation } = require('@opentelemetry/instrumentation-pg') as typeof import('@opentelemetry/instrumentation-pg');
  const { IORedisInstrumentation } = require('@opentelemetry/instrumentation-ioredis') as typeof import('@opentelemetry/instrumentation-ioredis');
  const sdk = new NodeSDK({
    resource: resourceFromAttributes({ 'service.name': env.OTEL_SERVICE_NAME || 'gas-relay', 'gas_relay.role': env.APP_ROLE || 'all' }),
    // Batched as OTEL_BSP_* say. Traces only: metrics stay Prometheus (/metrics), logs stay stdout.
    traceExporter: new OTLPTraceExporter(),
    metricReaders: [],
    logRecordProcessors: [],
    instrumentations: [
      new HttpInstrumentation({
        // Probes and scrapes would be most of the spans and tell nothing.
        ignoreIncomingRequestHook: (req: IncomingMessage) => OPS_PATHS.has((req.url ?? '').split('?')[0]),
        // Outgoing calls are the JSON-RPC ones (ethers over http/https): RpcPool's `rpc <method>`
        // spans name their provider redacted, where an HTTP span's url.full would hold a keyed
        // URL; and no traceparent header goes to third-party providers.
        disableOutgoingRequestInstrumentation: true,
      }),
      // Route handlers only: a span per middleware (CORS, body parser, trace id...) on every request says nothing.
      new ExpressInstrumentation({ ignoreLayersType: [ExpressLayerType.MIDDLEWARE] }),
      new PgInstrumentation({ requireParentSpan: true }),
      new IORedisInstrumentation({ requireParentSpan: true }),
    ],
  });
  sdk.start();
  markTracingEnabled();
  shutdown = () => sdk.shutdown();
  return true;
}

/** Flushes the spans still buffered (application shutdown). */
export async function shutdownTracing(): Promise<void> {
  const stop = shutdown;
  shutdown = undefined;
  await stop?.().catch(() => undefined);
}
