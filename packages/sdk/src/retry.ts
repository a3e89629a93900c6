/**
 * Retries of answers that say "not now": 429 (rate limit) and 503 (e.g. no fresh price, a
 * chain without a healthy provider), waiting what `Retry-After` asks. Only requests that are
 * safe to send twice are retried: idempotent methods, and POSTs carrying an `Idempotency-Key`
 * (the service answers a repeated key with the first answer and never relays twice).
 */
export interface RetryOptions {
  /** Attempts in all, the first one included (default 3; 1 turns retries off). */
  attempts?: number;
  /** Longest wait between two attempts (default 10 s); an answer asking for longer is returned as it is. */
  maxDelayMs?: number;
  /** Wait when the answer has no usable `Retry-After`: `baseDelayMs * 2^(n-1)` before retry n (default 500 ms). */
  baseDelayMs?: number;
}

const RETRIED_STATUSES = new Set([429, 503]);
const IDEMPOTENT_METHODS = new Set(['GET', 'HEAD', 'OPTIONS', 'PUT', 'DELETE']);

/** `Retry-After` as milliseconds from `now`: delta-seconds or an HTTP date; undefined when absent or unreadable. */
export function retryAfterMs(value: string | null, now = Date.now()): number | undefined {
  if (value === null) return undefined;
  const trimmed = value.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed) * 1000;
  const at = Date.parse(trimmed);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

export function isRetryable(request: Request): boolean {
  return IDEMPOTENT_METHODS.has(request.method.toUpperCase()) || request.headers.has('idempotency-key');
}

const sleep = (ms: number, signal: AbortSignal): Promise<void> =>
  new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    signal.addEventListener('abort', onAbort, { once: true });
  });

/** A fetch that retries per `RetryOptions`; the last answer (or the one asking for too long a wait) is returned as it is. */
export function retryingFetch(base: typeof fetch, options: RetryOptions = {}): typeof fetch {
  const attempts = Math.max(1, Math.floor(options.attempts ?? 3));
  const maxDelayMs = options.maxDelayMs ?? 10_000;
  const baseDelayMs = options.baseDelayMs ?? 500;
  return async (input, init) => {
    const request = new Request(input, init);
    if (attempts === 1 || !isRetryable(request)) return base(request);
    for (let attempt = 1; ; attempt += 1) {
      // A body can be read once: every attempt sends its own copy.
      const response = await base(request.clone());
      if (!RETRIED_STATUSES.has(response.status) || attempt >= attempts) return response;
      const delay = retryAfterMs(response.headers.get('retry-after')) ?? baseDelayMs * 2 ** (attempt - 1);
      if (delay > maxDelayMs) return response;
      await response.body?.cancel().catch(() => undefined);
      await sleep(delay, request.signal);
    }
  };
}
