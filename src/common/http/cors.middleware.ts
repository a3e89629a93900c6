import type { NextFunction, Request, RequestHandler, Response } from 'express';

/** Request headers a browser may send (extensions.md, "CORS"). */
export const CORS_ALLOWED_HEADERS = ['api-key', 'authorization', 'content-type', 'idempotency-key', 'x-relay-region'];
/** Response headers a browser script may read. */
const EXPOSED_HEADERS = ['x-trace-id', 'x-error-code', 'ratelimit-limit', 'ratelimit-remaining', 'ratelimit-reset', 'retry-after'];
const MAX_AGE_SECONDS = 600;

/** The part of an Express router layer this needs (router v2 `Layer`: `match` keeps no request state). */
interface RouteLayer {
  route?: { methods: Record<string, boolean> };
  match(path: string): unknown;
}

/** `*`, or the allowed origins of CORS_ORIGINS, lowercase. */
export function parseCorsOrigins(value: string): '*' | Set<string> {
  return value.trim() === '*' ? '*' : new Set(value.split(',').map((o) => o.trim().toLowerCase()).filter(Boolean));
}

/** The methods the app serves on `path` (uppercase, with HEAD beside GET and OPTIONS itself); empty for an unknown path. */
export function methodsServed(stack: readonly RouteLayer[], path: string): string[] {
  const methods = new Set<string>();
  for (const layer of stack) {
    if (!layer.route || !layer.match(path)) continue;
    for (const [method, on] of Object.entries(layer.route.methods)) if (on && method !== '_all') methods.add(method.toUpperCase());
  }
  if (methods.size === 0) return [];
  if (methods.has('GET')) methods.add('HEAD');
  methods.add('OPTIONS');
  return [...methods].sort();
}

/**
 * CORS for browsers: every request from an allowed origin gets Access-Control-Allow-Origin; a
 * preflight (OPTIONS) on a served path is answered here with 204 and the path's methods. The
 * account's domainWhitelist is checked afterwards, by the API-key guard. An origin outside
 * CORS_ORIGINS gets no CORS headers (the browser blocks the response); an unknown path falls
 * through to the 404.
 */
export function corsMiddleware(origins: '*' | Set<string>, routes: () => readonly RouteLayer[]): RequestHandler {
  return (req: Request, res: Response, next: NextFunction) => {
    const origin = req.header('origin');
    const allowed = origin !== undefined && (origins === '*' || origins.has(origin.toLowerCase()));
    if (allowed) {
      res.setHeader('Access-Control-Allow-Origin', origins === '*' ? '*' : origin);
      if (origins !== '*') res.append('Vary', 'Origin');
      res.setHeader('Access-Control-Expose-Headers', EXPOSED_HEADERS.join(', '));
    }
    if (req.method !== 'OPTIONS') return next();
    const methods = methodsServed(routes(), req.path);
    if (methods.length === 0) return next();
    res.setHeader('Allow', methods.join(', '));
    if (allowed) {
      res.setHeader('Access-Control-Allow-Methods', methods.join(', '));
      res.setHeader('Access-Control-Allow-Headers', CORS_ALLOWED_HEADERS.join(', '));
      res.setHeader('Access-Control-Max-Age', String(MAX_AGE_SECONDS));
    }
    res.status(204).end();
  };
}
