import { retryAfterMs } from './retry';

/** Every failed call throws a RelayApiError: the HTTP status, the catalog code and the trace id to quote to support. */
export class RelayApiError extends Error {
  override readonly name = 'RelayApiError';

  constructor(
    message: string,
    /** HTTP status (0 when the request never got an answer). */
    readonly status: number,
    /** Catalog code (AUTH_002, TRANSACTION_004, ...): from the error body, or the X-Error-Code header on code-envelope paths. */
    readonly code: string | undefined,
    /** The request's trace id (error body or X-Trace-Id header). */
    readonly traceId: string | undefined,
    /** The error body as received. */
    readonly body: unknown,
    /** Seconds the answer's `Retry-After` asked to wait (429, 503), when it gave one. */
    readonly retryAfterSeconds?: number,
  ) {
    super(message);
  }
}

/** waitFor gave up before the awaited state. */
export class RelayTimeoutError extends Error {
  override readonly name = 'RelayTimeoutError';

  constructor(
    message: string,
    readonly lastSeen: unknown,
  ) {
    super(message);
  }
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null;

/** Builds the error of a non-2xx answer from either envelope (interface.md "Errors"). */
export function toRelayApiError(response: Response, body: unknown): RelayApiError {
  const headerCode = response.headers.get('x-error-code') ?? undefined;
  const headerTrace = response.headers.get('x-trace-id') ?? undefined;
  const wait = retryAfterMs(response.headers.get('retry-after'));
  const retryAfterSeconds = wait === undefined ? undefined : Math.ceil(wait / 1000);
  if (isObject(body) && isObject(body.error)) {
    const { code, message, traceId } = body.error;
    return new RelayApiError(
      typeof message === 'string' ? message : `HTTP ${response.status}`,
      response.status,
      typeof code === 'string' ? code : headerCode,
      typeof traceId === 'string' ? traceId : headerTrace,
      body,
      retryAfterSeconds,
    );
  }
  const message = isObject(body) && typeof body.message === 'string' ? body.message : `HTTP ${response.status}`;
  return new RelayApiError(message, response.status, headerCode, headerTrace, body, retryAfterSeconds);
}
