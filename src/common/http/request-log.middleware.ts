import { Logger } from '@nestjs/common';
import type { NextFunction, Request, Response } from 'express';
import { runWithTrace } from '../trace/trace-context';
import { traceIdOf } from '../trace/trace-id.middleware';

const logger = new Logger('HTTP');

/** One access-log line per request, under the request's trace id (the same id as in error bodies). */
export function requestLogMiddleware(req: Request, res: Response, next: NextFunction): void {
  const started = process.hrtime.bigint();
  res.on('finish', () => {
    const ms = Number(process.hrtime.bigint() - started) / 1e6;
    const line = `${req.method} ${req.originalUrl.split('?')[0]} ${res.statusCode} ${ms.toFixed(1)}ms`;
    // 'finish' fires outside the request's async context, so restore the trace id explicitly.
    runWithTrace(traceIdOf(req), () => (res.statusCode >= 500 ? logger.error(line) : logger.log(line)));
  });
  next();
}
