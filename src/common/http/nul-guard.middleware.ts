import type { NextFunction, Request, Response } from 'express';
import { AppError } from '../errors/app-error';
import { bodyMayHoldNul } from './json-body.middleware';
import { sendError } from './send-error';

/**
 * PostgreSQL text cannot hold U+0000, so a NUL that reached a column would fail the statement
 * (500). No field of this API has a use for it, so it is refused once, at the edge, in every
 * body and query string (keys included) instead of field by field.
 */
export function nulGuardMiddleware(req: Request, res: Response, next: NextFunction): void {
  // Walked only when they may hold one: a query string carries U+0000 only percent-encoded (%00),
  // a body from the JSON parser only as the escape \u0000 (bodyMayHoldNul).
  const where = (bodyMayHoldNul(req) ? nulIn(req.body, 'body') : null) ?? (req.url.includes('%00') ? nulIn(req.query, 'query') : null);
  if (where) {
    sendError(req, res, new AppError('VALIDATION_004', `${where} contains a NUL character`));
    return;
  }
  next();
}

/** Depth is bounded by the JSON parser's limit and by the query parser's. */
function nulIn(value: unknown, path: string): string | null {
  if (typeof value === 'string') return value.includes('\u0000') ? path : null;
  if (value === null || typeof value !== 'object') return null;
  for (const [key, inner] of Object.entries(value as Record<string, unknown>)) {
    if (key.includes('\u0000')) return path;
    const found = nulIn(inner, Array.isArray(value) ? `${path}[${key}]` : `${path}.${key}`);
    if (found) return found;
  }
  return null;
}
