import { json } from 'express';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { AppError } from '../errors/app-error';
import { exceedsJsonDepth } from './json-depth';
import { sendError } from './send-error';

const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH']);
const JSON_TYPES = ['application/json', 'application/*+json'];

export interface JsonBodyLimits {
  /** Largest body, in body-parser's notation ('256kb'). */
  limit: string;
  /** Deepest nesting of arrays and objects. */
  maxDepth: number;
}

/**
 * JSON body parsing owned by the app instead of Nest's default, so that malformed JSON, a
 * non-JSON content type, an oversized body and a body nested too deeply become 400s in the
 * path's envelope rather than Express's HTML error page or a stack overflow further on.
 */
export function jsonBodyMiddleware({ limit, maxDepth }: JsonBodyLimits): RequestHandler {
  const parse = json({
    limit,
    strict: true,
    // The same types the content-type check lets through, so none of them arrives unparsed.
    type: JSON_TYPES,
    verify: (req, _res, bytes, encoding) => {
      if (exceedsJsonDepth(bytes, maxDepth)) throw Object.assign(new Error('too deep'), { type: 'entity.too.deep' });
      // JSON can only carry U+0000 as the escape \u0000 (a raw control character is a parse error), so a
      // UTF-8 body without that text holds none and the NUL guard need not walk it.
      (req as BodyRequest)[MAY_HOLD_NUL] = !/^utf-?8$/i.test(encoding) || bytes.includes(NUL_ESCAPE);
    },
  });
  return (req: Request, res: Response, next: NextFunction) => {
    // Nothing to parse (a GET, an empty POST): no parser machinery, as body-parser would leave it.
    if (!hasBody(req)) {
      if (!Reflect.has(req, 'body')) req.body = undefined;
      return next();
    }
    if (BODY_METHODS.has(req.method) && !isJson(req)) {
      sendError(req, res, new AppError('VALIDATION_004', 'Content-Type must be application/json'));
      return;
    }
    parse(req, res, (err?: unknown) => {
      if (!err) return next();
      sendError(req, res, parserError(err, limit, maxDepth));
    });
  };
}

const MAY_HOLD_NUL = Symbol('json-body:may-hold-nul');
const NUL_ESCAPE = Buffer.from('\\u0000');
type BodyRequest = Request & { [MAY_HOLD_NUL]?: boolean };

/**
 * False only for a body this parser read and found free of the escape \u0000: what the NUL guard
 * must still walk is every other body (none parsed, or parsed by someone else).
 */
export function bodyMayHoldNul(req: Request): boolean {
  return (req as BodyRequest)[MAY_HOLD_NUL] !== false;
}

/** The usual header exactly, else the full media-type match. */
function isJson(req: Request): boolean {
  const type = req.headers['content-type'];
  return type === 'application/json' || type === 'application/json; charset=utf-8' || req.is(JSON_TYPES) !== false;
}

function hasBody(req: Request): boolean {
  const length = req.headers['content-length'];
  return req.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
}

function parserError(err: unknown, limit: string, maxDepth: number): AppError {
  const type = (err as { type?: string }).type;
  if (type === 'entity.too.large') return new AppError('VALIDATION_004', `request body exceeds the ${limit} limit`);
  if (type === 'entity.too.deep') return new AppError('VALIDATION_004', `JSON body is nested deeper than ${maxDepth} levels`);
  if (type === 'entity.parse.failed') return new AppError('VALIDATION_004', 'malformed JSON body');
  return new AppError('VALIDATION_004', 'unreadable request body');
}
