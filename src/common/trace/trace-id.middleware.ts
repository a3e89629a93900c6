import type { NextFunction, Request, Response } from 'express';
import { newTraceId, runWithTrace, sanitizeTraceId } from './trace-context';
import { activeSpanIds } from './tracing';

export const TRACE_HEADER = 'X-Trace-Id';

/**
 * Plain Express middleware (installed before body parsing) so that even errors raised by the
 * body parser carry the trace id of their request.
 */
export function traceIdMiddleware(req: Request, res: Response, next: NextFunction): void {
  // Tracing on: the OTel trace (continued from the caller's traceparent when it sent one) names the request.
  const traceId = activeSpanIds()?.traceId ?? sanitizeTraceId(req.header(TRACE_HEADER)) ?? traceparentTraceId(req.header('traceparent')) ?? newTraceId();
  (req as Request & { traceId: string }).traceId = traceId;
  res.setHeader(TRACE_HEADER, traceId);
  runWithTrace(traceId, next);
}

export function traceIdOf(req: Request): string {
  return (req as Request & { traceId?: string }).traceId ?? newTraceId();
}

/** The trace id of a W3C `traceparent` (version 00, non-zero ids), so a caller's trace names the logs even with tracing off. */
export function traceparentTraceId(header: string | undefined): string | undefined {
  const m = header === undefined ? null : /^00-([0-9a-f]{32})-([0-9a-f]{16})-[0-9a-f]{2}$/.exec(header.trim());
  return m && !/^0+$/.test(m[1]) && !/^0+$/.test(m[2]) ? m[1] : undefined;
}
