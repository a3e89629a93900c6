import { context, Context, propagation, ROOT_CONTEXT, Span, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import { runWithTrace, txTraceId } from './trace-context';

/**
 * The service's own spans (pipeline stages, queued jobs, JSON-RPC calls) and the W3C
 * `traceparent` carried in queued jobs. Off unless the SDK was started (OTel SDK bootstrap,
 * OTEL_EXPORTER_OTLP_ENDPOINT set): every helper then returns at once, so the hot path pays a
 * boolean test and nothing else.
 */
let enabled = false;
const tracer = () => trace.getTracer('gas-relay');

export function markTracingEnabled(): void {
  enabled = true;
}

export function tracingEnabled(): boolean {
  return enabled;
}

/** Trace and span id of the active span, for the log line; undefined when tracing is off. */
export function activeSpanIds(): { traceId: string; spanId: string } | undefined {
  if (!enabled) return undefined;
  const span = trace.getActiveSpan();
  const ids = span?.spanContext();
  return ids && trace.isSpanContextValid(ids) ? { traceId: ids.traceId, spanId: ids.spanId } : undefined;
}

/** What a queued job carries so its worker continues the trace of whoever enqueued it. */
export interface TraceCarrier {
  traceparent?: string;
  tracestate?: string;
}

/** `{traceparent}` of the active context for a job's data; `{}` when tracing is off or nothing is traced. */
export function traceCarrier(): TraceCarrier {
  if (!enabled) return {};
  const carrier: TraceCarrier = {};
  propagation.inject(context.active(), carrier);
  return carrier;
}

/** The context a carrier names (the job's parent), or the root context. */
function contextOf(carrier: TraceCarrier | undefined): Context {
  return carrier?.traceparent ? propagation.extract(ROOT_CONTEXT, carrier) : ROOT_CONTEXT;
}

/**
 * Runs a queued job's work under a consumer span whose parent is the job's carrier, so the
 * worker's spans (stages, SQL, Redis, RPC) join the trace of the request that enqueued it.
 */
export function runJobTraced<T>(name: string, carrier: TraceCarrier | undefined, attributes: Record<string, string | number>, fn: () => Promise<T>): Promise<T> {
  if (!enabled) return fn();
  const parent = contextOf(carrier);
  return tracer().startActiveSpan(name, { kind: SpanKind.CONSUMER, attributes }, parent, async (span) => {
    try {
      return await fn();
    } catch (err) {
      failed(span, err);
      throw err;
    } finally {
      span.end();
    }
  });
}

/**
 * A span around `fn`, a child of the active span; nothing when there is none (background loops:
 * head polls, health probes) so they do not each start a trace. `outcome` adds attributes from
 * the result.
 */
export function tracedChild<T>(name: string, attributes: Record<string, string | number>, fn: () => Promise<T>, outcome?: (result: T) => Record<string, string | number>, kind: SpanKind = SpanKind.CLIENT): Promise<T> {
  if (!enabled || !trace.getActiveSpan()) return fn();
  return tracer().startActiveSpan(name, { kind, attributes }, async (span) => {
    try {
      const result = await fn();
      if (outcome) span.setAttributes(outcome(result));
      return result;
    } catch (err) {
      failed(span, err);
      throw err;
    } finally {
      span.end();
    }
  });
}

/**
 * Where each relayed transaction's trace continues after its send job: the receipt tracker
 * settles it outside any job, so the send remembers its context by transaction id (bounded:
 * the oldest are forgotten first; a transaction settled by another worker starts a new trace).
 * Kept past the settlement stage, for the final status's log line after it (`forgetTxTrace`).
 */
const byTx = new Map<string, Context>();
const BY_TX_MAX = 10_000;

export function rememberTxTrace(txId: string): void {
  if (!enabled) return;
  if (byTx.size >= BY_TX_MAX) byTx.delete(byTx.keys().next().value as string);
  byTx.set(txId, context.active());
}

/** The transaction's trace is complete (its final status logged): its context is let go. */
export function forgetTxTrace(txId: string): void {
  byTx.delete(txId);
}

/**
 * Runs `fn` outside the trace of whatever scheduled it, with `traceId` for its log lines. Work
 * that serves many transactions (a receipt tracker's pass, a settlement batch) starts here:
 * Node carries the async context into timers and microtasks, so a pass scheduled from one
 * transaction's send job would file its log lines and every stage span it records under that
 * transaction's trace.
 */
export function runDetached<T>(traceId: string, fn: () => T): T {
  return context.with(ROOT_CONTEXT, () => runWithTrace(traceId, fn));
}

/** Runs `fn` in one transaction's trace: its remembered context while tracing is on, and its trace id in the log lines. */
export function runInTxTrace<T>(txId: string, fn: () => T): T {
  const parent = enabled ? (byTx.get(txId) ?? ROOT_CONTEXT) : ROOT_CONTEXT;
  return context.with(parent, () => runWithTrace(txTraceId(txId), fn));
}

/**
 * A finished pipeline stage as a span (relay.stage.<stage>), timed from `startedMs` to now: under
 * the active span when there is one (the send job), else under the transaction's remembered
 * trace (inclusion and settlement, seen by the receipt tracker).
 */
export function stageSpan(stage: string, startedMs: number, attributes: Record<string, string | number>, txId?: string): void {
  if (!enabled) return;
  const active = trace.getActiveSpan() ? context.active() : undefined;
  const parent = active ?? (txId ? byTx.get(txId) : undefined) ?? ROOT_CONTEXT;
  tracer()
    .startSpan(`relay.stage.${stage}`, { startTime: startedMs, attributes: { ...attributes, 'relay.stage': stage, ...(txId ? { 'relay.tx_id': txId } : {}) } }, parent)
    .end();
}

function failed(span: Span, err: unknown): void {
  span.recordException(err instanceof Error ? err : String(err));
  span.setStatus({ code: SpanStatusCode.ERROR, message: err instanceof Error ? err.message.slice(0, 200) : String(err).slice(0, 200) });
}
