import { json } from 'express';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { AppError } from '../errors/app-error';
import { sendError } from './send-error';

const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH']);

/**
 * JSON body parsing owned by the app instead of Nest's default, so that malformed JSON, a
 * non-JSON content type and an oversized body become 400s in the path's envelope rather
 * than Express's HTML error page.
 */
export function jsonBodyMiddleware(limit: string): RequestHandler {
  const parse = json({ limit, strict: true });
  return (req: Request, res: Response, next: NextFunction) => {
    if (BODY_METHODS.has(req.method) && hasBody(req) && !req.is(['application/json', 'application/*+json'])) {
      sendError(req, res, new AppError('VALIDATION_004', 'Content-Type must be application/json'));
      return;
    }
    parse(req, res, (err?: unknown) => {
      if (!err) return next();
      sendError(req, res, parserError(err, limit));
    });
  };
}

function hasBody(req: Request): boolean {
  const length = req.headers['content-length'];
  return req.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
}

function parserError(err: unknown, limit: string): AppError {
  const type = (err as { type?: string }).type;
  if (type === 'entity.too.large') return new AppError('VALIDATION_004', `request body exceeds the ${limit} limit`);
  if (type === 'entity.parse.failed') return new AppError('VALIDATION_004', 'malformed JSON body');
  return new AppError('VALIDATION_004', 'unreadable request body');
}
