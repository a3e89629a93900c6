import type { Request, Response } from 'express';
import { AppError } from '../errors/app-error';
import { codeErrorEnvelope, errorEnvelope } from '../envelope/envelopes';
import { envelopeKindFor } from '../envelope/envelope-kind';
import { traceIdOf } from '../trace/trace-id.middleware';

/** Writes an AppError in the envelope of the request's path. Used by the filter and by raw middlewares. */
export function sendError(req: Request, res: Response, error: AppError): void {
  if (res.headersSent) return;
  for (const [name, value] of Object.entries(error.headers)) res.setHeader(name, value);
  // The code envelope has no room for the catalog code; clients (and the SDK) read it here on every path.
  res.setHeader('X-Error-Code', error.code);
  const body =
    envelopeKindFor(req.path) === 'code'
      ? codeErrorEnvelope(error.status, error.message)
      : errorEnvelope(error.code, error.message, traceIdOf(req));
  res.status(error.status).json(body);
}
