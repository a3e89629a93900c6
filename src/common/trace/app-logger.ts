import { ConsoleLogger, LogLevel } from '@nestjs/common';
import { currentTraceId } from './trace-context';

/**
 * Nest's logger with the trace id of the current request or job in every line. JSON lines
 * when LOG_FORMAT=json (production), readable text otherwise.
 */
export class AppLogger extends ConsoleLogger {
  private readonly json = process.env.LOG_FORMAT === 'json';

  protected override printMessages(
    messages: unknown[],
    context = '',
    logLevel: LogLevel = 'log',
    writeStreamType?: 'stdout' | 'stderr',
  ): void {
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
