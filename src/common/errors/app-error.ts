import { ERROR_CATALOG, ErrorCode } from './error-catalog';

/**
 * The one error type domain code throws. The exception filter turns it into whichever
 * envelope the route uses; nothing else decides status codes.
 */
export class AppError extends Error {
  readonly status: number;

  constructor(
    readonly code: ErrorCode,
    message?: string,
    /** Extra headers the response must carry (e.g. Retry-After on RESOURCE_003). */
    readonly headers: Record<string, string> = {},
  ) {
    super(message ?? ERROR_CATALOG[code].message);
    this.name = 'AppError';
    this.status = ERROR_CATALOG[code].status;
  }
}
