import { AppError } from '../errors/app-error';
import { ERROR_CATALOG } from '../errors/error-catalog';
import { redactUrls, scrubProviderUrls } from './provider-url';
import { RpcUnavailableError } from './rpc-unavailable';

/**
 * What a failed node call may show: a short code, never the provider's text. An ethers error's
 * message holds the request URL (with any API key in it), the response body and the payload;
 * answers, /health and stored failure reasons carry only `providerErrorCode`, and logs carry
 * `providerErrorDetail` (the short message, URLs redacted).
 *
 * Codes: `timeout`, `http <status>` (e.g. `http 429`, `http 503`), `rpc <code>` (a JSON-RPC
 * error, e.g. `rpc -32000`), `connection refused`, `connection reset`, `dns failure`,
 * `unreachable`, `bad response`, `reverted`, an ethers code in words (`insufficient funds`,
 * `nonce expired`, ...), else `provider error`.
 */
export function providerErrorCode(err: unknown, depth = 0): string {
  if (err instanceof ProviderCallError) return err.reason;
  if (err instanceof RpcUnavailableError) return err.reason;
  if (err instanceof AppError) return err.code;
  if (!err || typeof err !== 'object') return 'provider error';
  const e = err as ErrorShape;
  const status = httpStatusOf(e);
  if (status !== null) return `http ${status}`;
  if (typeof e.code === 'string' && e.code in ETHERS_CODES) return ETHERS_CODES[e.code];
  const rpc = rpcCodeOf(e);
  if (rpc !== null) return `rpc ${rpc}`;
  if (typeof e.code === 'string' && e.code in SOCKET_CODES) return SOCKET_CODES[e.code];
  if (typeof e.code === 'string' && /^[A-Z][A-Z_]+$/.test(e.code) && e.code !== 'UNKNOWN_ERROR' && e.code !== 'SERVER_ERROR') return e.code.toLowerCase().replace(/_/g, ' ');
  if (e.cause && depth < 3) return providerErrorCode(e.cause, depth + 1);
  if (typeof e.message === 'string' && /timed? ?out/i.test(e.message)) return 'timeout';
  return 'provider error';
}

/** One line for the logs: the code and the error's short message, every URL redacted. */
export function providerErrorDetail(err: unknown): string {
  const code = providerErrorCode(err);
  if (err instanceof AppError) return safeText(err.message);
  const e = (err && typeof err === 'object' ? err : { message: String(err) }) as ErrorShape;
  // ethers' shortMessage leaves out the request, response body and info of its long message.
  const short = typeof e.shortMessage === 'string' ? e.shortMessage : typeof e.message === 'string' ? e.message : String(err);
  const nested = e.error && typeof e.error.message === 'string' ? ` (${e.error.message})` : '';
  return `${code}: ${safeText(`${short}${nested}`)}`;
}

/**
 * Text of any error that may be stored or shown (a transaction's failure reason): a node call's
 * failure as its code, anything else as its first line with URLs redacted.
 */
export function shownErrorText(err: unknown): string {
  if (err instanceof ProviderCallError) return err.reason;
  if (err instanceof AppError) return safeText(err.message);
  if (isProviderError(err)) return providerErrorCode(err);
  return safeText(err instanceof Error ? err.message : String(err));
}

/** An ethers or socket error (the shapes a node call fails with). */
export function isProviderError(err: unknown): boolean {
  if (!err || typeof err !== 'object') return false;
  const e = err as ErrorShape;
  return (typeof e.code === 'string' && (/^[A-Z][A-Z_]+$/.test(e.code) || e.code in SOCKET_CODES)) || typeof e.shortMessage === 'string' || httpStatusOf(e) !== null || rpcCodeOf(e) !== null;
}

/**
 * CHAIN_003 for a failed node call. Its message (logged by the exception filter under the trace
 * id) holds the redacted detail; the answer says only the catalog message and the code.
 */
export class ProviderCallError extends AppError {
  readonly reason: string;

  constructor(what: string, err: unknown) {
    super('CHAIN_003', `${what}: ${providerErrorDetail(err)}`);
    this.reason = providerErrorCode(err);
  }

  /** What a client sees, e.g. "blockchain RPC error (http 429)". */
  get publicMessage(): string {
    return `${ERROR_CATALOG.CHAIN_003.message} (${this.reason})`;
  }
}

interface ErrorShape {
  code?: unknown;
  message?: unknown;
  shortMessage?: unknown;
  status?: unknown;
  error?: { code?: unknown; message?: unknown };
  info?: { responseStatus?: unknown; error?: { code?: unknown } };
  cause?: unknown;
}

const ETHERS_CODES: Record<string, string> = {
  TIMEOUT: 'timeout',
  CALL_EXCEPTION: 'reverted',
  BAD_DATA: 'bad response',
  CANCELLED: 'cancelled',
  INSUFFICIENT_FUNDS: 'insufficient funds',
  NONCE_EXPIRED: 'nonce expired',
  REPLACEMENT_UNDERPRICED: 'replacement underpriced',
  TRANSACTION_REPLACED: 'transaction replaced',
};

const SOCKET_CODES: Record<string, string> = {
  ETIMEDOUT: 'timeout',
  ESOCKETTIMEDOUT: 'timeout',
  UND_ERR_CONNECT_TIMEOUT: 'timeout',
  UND_ERR_HEADERS_TIMEOUT: 'timeout',
  ECONNREFUSED: 'connection refused',
  ECONNRESET: 'connection reset',
  EPIPE: 'connection reset',
  UND_ERR_SOCKET: 'connection reset',
  ENOTFOUND: 'dns failure',
  EAI_AGAIN: 'dns failure',
  EHOSTUNREACH: 'unreachable',
  ENETUNREACH: 'unreachable',
};

function httpStatusOf(e: ErrorShape): number | null {
  const fromInfo = typeof e.info?.responseStatus === 'string' ? /^(\d{3})\b/.exec(e.info.responseStatus) : null;
  if (fromInfo) return Number(fromInfo[1]);
  const fromShort = typeof e.shortMessage === 'string' ? /^server response (\d{3})\b/.exec(e.shortMessage) : null;
  if (fromShort) return Number(fromShort[1]);
  return null;
}

function rpcCodeOf(e: ErrorShape): number | null {
  for (const code of [e.error?.code, e.info?.error?.code, e.code]) if (typeof code === 'number' && Number.isInteger(code)) return code;
  return null;
}

function safeText(text: string): string {
  return redactUrls(scrubProviderUrls(text.split('\n')[0])).slice(0, 300);
}
