import createClient, { type Client } from 'openapi-fetch';
import type { paths } from './generated/api';
import { RelayApiError, toRelayApiError } from './errors';
import { retryingFetch, type RetryOptions } from './retry';

export type ApiClient = Client<paths>;

export interface Credentials {
  /** The account's API key (`api-key` header). */
  apiKey?: string;
  /**
   * A wallet-login JWT (`Authorization: Bearer`), accepted by GET /api/txs, /api/account, /api/user/webhooks and the
   * socket, from inside the account's ipWhitelist/domainWhitelist; register-webhooks takes it only for the account's
   * first webhook set (replacing a set or rotating the signing secret needs the API key: 403 AUTH_007).
   */
  jwt?: string;
}

/** `retry: false` sends every request once; otherwise 429/503 are retried per `RetryOptions` (see retry.ts). */
export function createApiClient(baseUrl: string, credentials: Credentials, fetchImpl?: typeof fetch, retry: RetryOptions | false = {}): ApiClient {
  const headers: Record<string, string> = {};
  if (credentials.apiKey) headers['api-key'] = credentials.apiKey;
  if (credentials.jwt) headers.authorization = `Bearer ${credentials.jwt}`;
  // Looked up per call, so a fetch installed after the client was built (tests, polyfills) is used.
  const base: typeof fetch = fetchImpl ?? ((input, init) => globalThis.fetch(input, init));
  return createClient<paths>({ baseUrl: baseUrl.replace(/\/+$/, ''), headers, fetch: retry === false ? base : retryingFetch(base, retry) });
}

interface Answer<B> {
  data?: B;
  error?: unknown;
  response: Response;
}

/** The body of a 2xx answer, or a RelayApiError. */
export async function body<B>(call: Promise<Answer<B>>): Promise<B> {
  let answer: Answer<B>;
  try {
    answer = await call;
  } catch (err) {
    throw new RelayApiError(`request failed: ${err instanceof Error ? err.message : String(err)}`, 0, undefined, undefined, undefined);
  }
  if (answer.response.ok && answer.data !== undefined) return answer.data;
  throw toRelayApiError(answer.response, answer.error);
}

/** `data` of a success- or code-envelope answer. */
export async function data<D>(call: Promise<Answer<{ data: D }>>): Promise<D> {
  return (await body(call)).data;
}
