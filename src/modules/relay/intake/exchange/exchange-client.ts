/**
 * Forwards a signed exchange request to an exchange's `POST <baseUrl>/exchange`.
 *
 * The exchange answers `{status: "ok", response}` when it accepts and `{status: "err", response}`
 * when it rejects (Hyperliquid's convention). Only those two answers are outcomes: an "err" on a
 * 2xx or 4xx status is a rejection, the caller's terminal FAILED. Anything else (no connection, a
 * timeout, 5xx, 408, 429, a body that is not in the protocol such as a proxy's 404 page) leaves the
 * fate of the action unknown or undecided, so it throws ExchangeUnavailableError instead.
 */
import type { ExchangeRequest } from './exchange-request';

export interface ExchangeSubmitResult {
  accepted: boolean;
  status: number;
  /** The exchange's `response` field: a result object when accepted, usually a message when rejected. */
  response: unknown;
  /** Why the exchange rejected; absent when accepted. */
  reason?: string;
}

export type ExchangeUnavailableKind = 'unreachable' | 'timeout' | 'http-status' | 'bad-response';

export class ExchangeUnavailableError extends Error {
  constructor(
    readonly kind: ExchangeUnavailableKind,
    message: string,
    /** HTTP status when the exchange did answer. */
    readonly status?: number,
  ) {
    super(message);
    this.name = 'ExchangeUnavailableError';
  }
}

/** Statuses that say "not now" rather than "not this action". */
const RETRYABLE_CLIENT_STATUSES = new Set([408, 425, 429]);
const MAX_REASON_LENGTH = 500;

export class ExchangeClient {
  async submit(baseUrl: string, request: ExchangeRequest, timeoutMs: number): Promise<ExchangeSubmitResult> {
    const url = `${baseUrl.replace(/\/+$/, '')}/exchange`;
    const abort = new AbortController();
    const timer = setTimeout(() => abort.abort(), timeoutMs);
    let status: number;
    let text: string;
    try {
      const res = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json' },
        body: JSON.stringify({ action: request.action, nonce: request.nonce, signature: request.signature }),
        signal: abort.signal,
      });
      status = res.status;
      // Read under the same deadline: an exchange that sends headers and then stalls is just as unavailable.
      text = await res.text();
    } catch (err) {
      if (abort.signal.aborted) throw new ExchangeUnavailableError('timeout', `exchange ${url} did not answer within ${timeoutMs} ms`);
      throw new ExchangeUnavailableError('unreachable', `exchange ${url} is unreachable: ${describeFetchError(err)}`);
    } finally {
      clearTimeout(timer);
    }
    return interpret(url, status, text);
  }
}

function interpret(url: string, status: number, text: string): ExchangeSubmitResult {
  if (status >= 500 || RETRYABLE_CLIENT_STATUSES.has(status)) {
    throw new ExchangeUnavailableError('http-status', `exchange ${url} answered HTTP ${status}`, status);
  }
  const body = parseBody(text);
  const success = status >= 200 && status < 300;
  const clientError = status >= 400 && status < 500;
  if (success && body?.status === 'ok') return { accepted: true, status, response: body.response };
  if ((success || clientError) && body?.status === 'err') return { accepted: false, status, response: body.response, reason: reasonOf(body.response) };
  throw new ExchangeUnavailableError('bad-response', `exchange ${url} answered HTTP ${status} outside the exchange protocol: ${text.slice(0, 200)}`, status);
}

function parseBody(text: string): { status: unknown; response: unknown } | undefined {
  try {
    const body: unknown = JSON.parse(text);
    if (typeof body !== 'object' || body === null || Array.isArray(body)) return undefined;
    const record = body as Record<string, unknown>;
    return { status: record.status, response: record.response };
  } catch {
    return undefined;
  }
}

function reasonOf(response: unknown): string {
  const reason = typeof response === 'string' ? response : (JSON.stringify(response) ?? 'rejected');
  return reason.length > MAX_REASON_LENGTH ? `${reason.slice(0, MAX_REASON_LENGTH)}…` : reason;
}

/** undici reports "fetch failed" and hides the useful part (ECONNREFUSED, ENOTFOUND) in `cause`. */
function describeFetchError(err: unknown): string {
  if (!(err instanceof Error)) return String(err);
  const cause = err.cause instanceof Error ? err.cause : undefined;
  const code = (cause as NodeJS.ErrnoException | undefined)?.code;
  return cause ? `${err.message} (${code ?? cause.message})` : err.message;
}
