import type { Server } from 'node:http';
import { STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';
import { Logger } from '@nestjs/common';
import { codeErrorEnvelope, errorEnvelope } from '../envelope/envelopes';
import { envelopeKindFor } from '../envelope/envelope-kind';
import { newTraceId } from '../trace/trace-context';
import { TRACE_HEADER } from '../trace/trace-id.middleware';

export interface HttpServerLimits {
  headersTimeoutMs: number;
  requestTimeoutMs: number;
  keepAliveTimeoutMs: number;
}

const logger = new Logger('HTTP');

/**
 * Timeouts of the Node HTTP server, and its own refusals (oversized headers, a request line or
 * header it cannot parse, a request not received in time) answered in the path's envelope
 * instead of Node's empty 400/431. These never reach Express, so the status is the one Node
 * chose (400, 408 or 431) and the code is VALIDATION_004.
 */
export function applyHttpServerLimits(server: Server, limits: HttpServerLimits): void {
  server.requestTimeout = limits.requestTimeoutMs;
  // Node requires the header deadline to fall within the request deadline.
  server.headersTimeout = Math.min(limits.headersTimeoutMs, limits.requestTimeoutMs);
  server.keepAliveTimeout = limits.keepAliveTimeoutMs;
  server.on('clientError', (err: NodeJS.ErrnoException & { rawPacket?: Buffer }, socket: Duplex) => {
    if (err.code === 'ECONNRESET' || !socket.writable) {
      socket.destroy();
      return;
    }
    // A response already under way (e.g. a keep-alive timeout mid-answer) cannot be replaced.
    if ((socket as Duplex & { _httpMessage?: { headersSent?: boolean } })._httpMessage?.headersSent) {
      socket.destroy();
      return;
    }
    const { status, message } = refusalOf(err);
    const traceId = newTraceId();
    const path = requestPathOf(err.rawPacket);
    logger.warn(`[trace ${traceId}] refused by the HTTP parser: ${status} ${err.code ?? err.message}`);
    const body = JSON.stringify(
      envelopeKindFor(path) === 'code' ? codeErrorEnvelope(status, message) : errorEnvelope('VALIDATION_004', message, traceId),
    );
    socket.end(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\n` +
        'Content-Type: application/json; charset=utf-8\r\n' +
        `Content-Length: ${Buffer.byteLength(body)}\r\n` +
        `${TRACE_HEADER}: ${traceId}\r\n` +
        'Connection: close\r\n\r\n' +
        body,
    );
  });
}

function refusalOf(err: NodeJS.ErrnoException): { status: number; message: string } {
  switch (err.code) {
    case 'HPE_HEADER_OVERFLOW':
      return { status: 431, message: 'request headers too large' };
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return { status: 408, message: 'request not received in time' };
    default:
      return { status: 400, message: 'malformed HTTP request' };
  }
}

/** The path of the request line in what the parser had read, when it got that far. */
function requestPathOf(raw: Buffer | undefined): string {
  const line = raw?.subarray(0, 2048).toString('latin1').split('\r\n', 1)[0] ?? '';
  const target = /^[A-Z]+ (\S+)/.exec(line)?.[1] ?? '/';
  return target.startsWith('/') ? target : '/';
}
