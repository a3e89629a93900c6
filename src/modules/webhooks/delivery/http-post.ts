import { request as httpRequest, IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { LookupAddress } from 'node:dns';
import { NonPublicTargetError, resolvePublic } from '../ssrf/public-resolver';

export interface OutboundPost {
  url: string;
  headers: Record<string, string>;
  body: string;
  timeoutMs: number;
  allowPrivate: boolean;
}

export interface OutboundResult {
  ok: boolean;
  statusCode: number | null;
  /** Why the attempt failed; never contains header values (secrets). */
  error: string | null;
  /** The deadline passed (DNS, connect or response). */
  timedOut?: boolean;
  /** The host is not public (SSRF guard): nothing was sent; `error` names the address, for logs only. */
  refused?: boolean;
  /** The response body (utf-8, at most 64 KiB), for callers that read the answer (approval webhook). */
  body?: string;
}

const MAX_RESPONSE_BYTES = 64 * 1024;

/**
 * One POST to a webhook: resolve the host, refuse non-public addresses, then connect to
 * exactly the addresses that were checked (DNS rebinding cannot swap them), with one overall
 * deadline. Only a 2xx counts; redirects are not followed (a moved endpoint is re-registered).
 */
export async function postWebhook(post: OutboundPost): Promise<OutboundResult> {
  const url = new URL(post.url);
  const deadline = AbortSignal.timeout(post.timeoutMs);
  let addresses: LookupAddress[];
  try {
    // The deadline covers the DNS lookup too: a stalling resolver must not hold a worker slot.
    addresses = await Promise.race([
      resolvePublic(url.hostname, post.allowPrivate),
      new Promise<never>((_, reject) => deadline.addEventListener('abort', () => reject(new Error(`timed out after ${post.timeoutMs} ms`)), { once: true })),
    ]);
  } catch (err) {
    return { ok: false, statusCode: null, error: (err as Error).message, timedOut: deadline.aborted, refused: err instanceof NonPublicTargetError };
  }
  const pinned = (_host: string, options: unknown, callback: (...args: unknown[]) => void) => {
    if (typeof options === 'object' && options !== null && (options as { all?: boolean }).all) callback(null, addresses);
    else callback(null, addresses[0].address, addresses[0].family);
  };
  const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise<OutboundResult>((resolve) => {
    let settled = false;
    const finish = (result: OutboundResult) => {
      if (settled) return;
      settled = true;
      resolve(result);
    };
    const req = send(
      url,
      {
        method: 'POST',
        headers: { ...post.headers, 'content-length': String(Buffer.byteLength(post.body)) },
        lookup: pinned as never,
        agent: false,
        signal: deadline,
      },
      (res: IncomingMessage) => {
        let received = 0;
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => {
          received += chunk.length;
          if (received > MAX_RESPONSE_BYTES) res.destroy();
          else chunks.push(chunk);
        });
        const done = () => {
          const status = res.statusCode ?? 0;
          const ok = status >= 200 && status < 300;
          finish({ ok, statusCode: status, error: ok ? null : `HTTP ${status}`, body: Buffer.concat(chunks).toString('utf8') });
        };
        res.on('end', done);
        res.on('close', done);
        res.on('error', done);
      },
    );
    req.on('error', (err: Error) => {
      const reason = deadline.aborted ? `timed out after ${post.timeoutMs} ms` : err.message;
      finish({ ok: false, statusCode: null, error: reason, timedOut: deadline.aborted });
    });
    req.end(post.body);
  });
}
