import http from 'node:http';
import https from 'node:https';
import { urlToHttpOptions } from 'node:url';

/**
 * A call that got no JSON-RPC answer: timeout, refused or reset connection, an HTTP error
 * status, an unparsable body. `reason` is the short code shown (`timeout`, `http 429`, ...).
 */
export class TransportFailure extends Error {
  constructor(
    readonly reason: string,
    /** From a 429's Retry-After, in ms. */
    readonly retryAfterMs: number | null = null,
  ) {
    super(reason);
  }
}

/** A provider's URL as a place to POST JSON-RPC bodies to. */
export class HttpTransport {
  /** The URL as request options, parsed at the first call (a URL per call was a measurable share of a call's CPU). */
  private target?: Target;

  constructor(private readonly url: string) {}

  /**
   * The answer's text to one POST over node:http(s) with a keep-alive agent (fetch refuses some
   * ports outright and hides socket error codes); the timeout covers connect, headers and body,
   * retries included.
   *
   * A kept-alive connection the provider closed while it sat idle fails the next request written
   * to it with a reset before any byte of an answer: the provider never read that request, so it
   * is sent once more on a new connection instead of counting against the provider (which would
   * open its circuit and, with one provider, take the chain out of service for a second). A reset
   * on a new connection, or after the answer began, is a failure as before.
   */
  async post(body: string, timeoutMs: number): Promise<string> {
    const deadline = Date.now() + Math.max(1, Math.floor(timeoutMs));
    try {
      return await this.postOnce(body, timeoutMs);
    } catch (err) {
      if (!(err instanceof StaleConnection)) throw err;
      return this.postOnce(body, Math.max(1, deadline - Date.now()), true);
    }
  }

  private postOnce(body: string, timeoutMs: number, retried = false): Promise<string> {
    this.target ??= targetOf(this.url);
    const { client, options, agent } = this.target;
    return new Promise<string>((resolve, reject) => {
      let answered = false;
      let settled = false;
      const finish = (fn: () => void) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        fn();
      };
      const req = client.request(
        { ...options, method: 'POST', agent, headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } },
        (res) => {
          answered = true;
          const status = res.statusCode ?? 0;
          if (status === 429 || status < 200 || status >= 300) {
            res.resume();
            const after = status === 429 ? retryAfter(headerOf(res.headers['retry-after'])) : null;
            finish(() => reject(new TransportFailure(`http ${status}`, after)));
            return;
          }
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('error', (err) => finish(() => reject(new TransportFailure(transportReason(err)))));
          res.on('end', () => finish(() => resolve(Buffer.concat(chunks).toString('utf8'))));
        },
      );
      const timer = setTimeout(() => {
        finish(() => reject(new TransportFailure('timeout')));
        req.destroy();
      }, Math.max(1, Math.floor(timeoutMs)));
      req.on('error', (err) => {
        const reason = transportReason(err);
        const stale = !retried && !answered && req.reusedSocket && reason === 'connection reset';
        finish(() => reject(stale ? new StaleConnection(reason) : new TransportFailure(reason)));
      });
      req.end(body);
    });
  }
}

interface Target {
  client: typeof http | typeof https;
  options: http.RequestOptions;
  agent: http.Agent;
}

function targetOf(url: string): Target {
  const parsed = new URL(url);
  const secure = parsed.protocol === 'https:';
  return { client: secure ? https : http, options: urlToHttpOptions(parsed), agent: secure ? HTTPS_AGENT : HTTP_AGENT };
}

/** A reset on a kept-alive connection before any answer: the provider closed it while idle (see `HttpTransport.post`). */
class StaleConnection extends TransportFailure {}

const HTTP_AGENT = new http.Agent({ keepAlive: true, maxSockets: 64 });
const HTTPS_AGENT = new https.Agent({ keepAlive: true, maxSockets: 64 });

function headerOf(v: string | string[] | undefined): string | null {
  return Array.isArray(v) ? (v[0] ?? null) : (v ?? null);
}

/** Retry-After as seconds or an HTTP date, in ms; absent or unreadable: null (the 1 s floor applies). */
export function retryAfter(header: string | null, now = Date.now()): number | null {
  if (!header) return null;
  const seconds = Number(header.trim());
  if (Number.isFinite(seconds) && seconds >= 0) return Math.min(seconds * 1000, 600_000);
  const at = Date.parse(header);
  return Number.isNaN(at) ? null : Math.min(Math.max(0, at - now), 600_000);
}

const SOCKET: Record<string, string> = {
  ECONNREFUSED: 'connection refused',
  ECONNRESET: 'connection reset',
  EPIPE: 'connection reset',
  UND_ERR_SOCKET: 'connection reset',
  UND_ERR_CLOSED: 'connection reset',
  ETIMEDOUT: 'timeout',
  UND_ERR_CONNECT_TIMEOUT: 'timeout',
  UND_ERR_HEADERS_TIMEOUT: 'timeout',
  UND_ERR_BODY_TIMEOUT: 'timeout',
  ENOTFOUND: 'dns failure',
  EAI_AGAIN: 'dns failure',
  EHOSTUNREACH: 'unreachable',
  ENETUNREACH: 'unreachable',
};

function transportReason(err: unknown): string {
  const e = err as { code?: string; cause?: { code?: string } };
  const code = e?.code ?? e?.cause?.code;
  if (code && SOCKET[code]) return SOCKET[code];
  return 'provider error';
}
