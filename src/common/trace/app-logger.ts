import { ConsoleLogger, LogLevel } from '@nestjs/common';
import pino, { Logger as Pino } from 'pino';
import { scrubProviderUrls } from '../evm/provider-url';
import { logFormat } from '../../config/process-env';
import { currentTraceId } from './trace-context';
import { activeSpanIds } from './tracing';

/** Nest's levels in the names log shippers know (pino's, also syslog's and ECS's). */
const LEVELS: Record<LogLevel, 'info' | 'error' | 'warn' | 'debug' | 'trace' | 'fatal'> = {
  log: 'info',
  error: 'error',
  warn: 'warn',
  debug: 'debug',
  verbose: 'trace',
  fatal: 'fatal',
};

/** One pino logger per stream, JSON lines with `level` as a name and an ISO `time`. */
function jsonLogger(stream: NodeJS.WritableStream): Pino {
  return pino(
    {
      level: 'trace',
      base: undefined,
      messageKey: 'msg',
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
    },
    // The stream object, not its fd: every line goes through stream.write (which tests capture) in order with Nest's own output.
    { write: (line: string) => stream.write(line) },
  );
}

/**
 * Nest's logger with the trace id of the current request or job in every line (the OTel trace
 * id, plus the span id, while tracing is on). LOG_FORMAT=json (production): one JSON object per
 * line through pino, fields not strings: a message that is an object (an operator alert, an
 * access-log record) is merged in as fields, an error becomes `err` {type, message, stack}.
 * Readable text otherwise. Every line is scrubbed of the configured provider URLs (their keys),
 * whatever error text it quotes.
 */
export class AppLogger extends ConsoleLogger {
  private readonly json = logFormat() === 'json';
  private out?: Pino;
  private err?: Pino;

  protected override printStackTrace(stack: string): void {
    // JSON lines carry the stack as a field of their own line.
    if (this.json) return;
    super.printStackTrace(typeof stack === 'string' ? scrubProviderUrls(stack) : stack);
  }

  protected override printMessages(
    rawMessages: unknown[],
    context = '',
    logLevel: LogLevel = 'log',
    writeStreamType?: 'stdout' | 'stderr',
    errorStack?: unknown,
  ): void {
    const messages = rawMessages.map(scrubbed);
    const span = activeSpanIds();
    const traceId = span?.traceId ?? currentTraceId() ?? '-';
    if (!this.json) {
      super.printMessages(
        messages.map((m) => (typeof m === 'string' ? `[trace ${traceId}] ${m}` : isRecord(m) ? `[trace ${traceId}] ${textOf(m)}` : m)),
        context,
        logLevel,
        writeStreamType,
        errorStack,
      );
      return;
    }
    const toStderr = writeStreamType === 'stderr' || logLevel === 'error' || logLevel === 'fatal';
    const logger = toStderr ? (this.err ??= jsonLogger(process.stderr)) : (this.out ??= jsonLogger(process.stdout));
    const level = LEVELS[logLevel] ?? 'info';
    for (const message of messages) {
      const fields: Record<string, unknown> = { context, traceId };
      if (span) fields.spanId = span.spanId;
      if (typeof errorStack === 'string') fields.stack = scrubProviderUrls(errorStack);
      if (message instanceof Error) {
        logger[level]({ ...fields, err: { type: message.name, message: message.message, stack: message.stack } }, message.message);
      } else if (message !== null && typeof message === 'object') {
        const { msg, ...rest } = message as Record<string, unknown>;
        logger[level]({ ...rest, ...fields }, typeof msg === 'string' ? msg : '');
      } else {
        logger[level](fields, String(message));
      }
    }
  }
}

function isRecord(m: unknown): m is Record<string, unknown> {
  return m !== null && typeof m === 'object' && !(m instanceof Error) && typeof (m as { msg?: unknown }).msg === 'string';
}

/** A structured message on one readable line (text logs only): its msg, then its other fields. */
function textOf({ msg, ...rest }: Record<string, unknown>): string {
  const fields = Object.entries(rest).filter(([, v]) => v !== undefined);
  return fields.length === 0 ? String(msg) : `${String(msg)} ${JSON.stringify(Object.fromEntries(fields))}`;
}

function scrubbed(message: unknown): unknown {
  if (typeof message === 'string') return scrubProviderUrls(message);
  if (message instanceof Error) {
    const copy = new Error(scrubProviderUrls(message.message));
    copy.name = message.name;
    copy.stack = message.stack === undefined ? undefined : scrubProviderUrls(message.stack);
    return copy;
  }
  if (message !== null && typeof message === 'object') {
    // Structured fields: scrub the string values (an alert's detail may quote a provider's error).
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(message as Record<string, unknown>)) out[k] = typeof v === 'string' ? scrubProviderUrls(v) : v;
    return out;
  }
  return message;
}
