import { ConsoleLogger, LogLevel } from '@nestjs/common';
import { scrubProviderUrls } from '../evm/provider-url';
import { logFormat } from '../../config/process-env';
import { currentTraceId } from './trace-context';

/**
 * Nest's logger with the trace id of the current request or job in every line. JSON lines
 * when LOG_FORMAT=json (production), readable text otherwise. Every line is scrubbed of the
 * configured provider URLs (their keys), whatever error text it quotes.
 */
export class AppLogger extends ConsoleLogger {
  private readonly json = logFormat() === 'json';

  protected override printStackTrace(stack: string): void {
    super.printStackTrace(typeof stack === 'string' ? scrubProviderUrls(stack) : stack);
  }

  protected override printMessages(
    rawMessages: unknown[],
    context = '',
    logLevel: LogLevel = 'log',
    writeStreamType?: 'stdout' | 'stderr',
  ): void {
    const messages = rawMessages.map(scrubbed);
    const traceId = currentTraceId() ?? '-';
    if (!this.json) {
      super.printMessages(
        messages.map((m) => (typeof m === 'string' ? `[trace ${traceId}] ${m}` : m)),
        context,
        logLevel,
        writeStreamType,
      );
      return;
    }
    const stream = writeStreamType === 'stderr' || logLevel === 'error' ? process.stderr : process.stdout;
    for (const message of messages) {
      const line = {
        time: new Date().toISOString(),
        level: logLevel,
        context,
        traceId,
        msg: message instanceof Error ? message.message : message,
      };
      stream.write(`${JSON.stringify(line)}\n`);
    }
  }
}

function scrubbed(message: unknown): unknown {
  if (typeof message === 'string') return scrubProviderUrls(message);
  if (message instanceof Error) {
    const copy = new Error(scrubProviderUrls(message.message));
    copy.name = message.name;
    copy.stack = message.stack === undefined ? undefined : scrubProviderUrls(message.stack);
    return copy;
  }
  return message;
}
