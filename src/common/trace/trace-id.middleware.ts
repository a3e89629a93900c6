import type { NextFunction, Request, Response } from 'express';
import { newTraceId, runWithTrace, sanitizeTraceId } from './trace-context';

export const TRACE_HEADER = 'X-Trace-Id';

/**
 * Plain Express middleware (installed before body parsing) so that even errors raised by the
 * body parser carry the trace id of their request.
 */
export function traceIdMiddleware(req: Request, res: Response, next: NextFunction): void {
  const traceId = sanitizeTraceId(req.header(TRACE_HEADER)) ?? newTraceId();
  (req as Request & { traceId: string }).traceId = traceId;
  res.setHeader(TRACE_HEADER, traceId);
  runWithTrace(traceId, next);
}

export function traceIdOf(req: Request): string {
  return (req as Request & { traceId?: string }).traceId ?? newTraceId();
}
