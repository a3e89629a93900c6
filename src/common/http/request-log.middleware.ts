import { Logger } from '@nestjs/common';
import type { NextFunction, Request, Response } from 'express';
import { runWithTrace } from '../trace/trace-context';
import { traceIdOf } from '../trace/trace-id.middleware';

const logger = new Logger('HTTP');

/** One access-log line per request, under the request's trace id (the same id as in error bodies). */
export function requestLogMiddleware(req: Request, res: Response, next: NextFunction): void {
  const started = process.hrtime.bigint();
  res.on('finish', () => {
    const durationMs = Math.round(Number(process.hrtime.bigint() - started) / 1e3) / 1e3;
    const path = req.originalUrl.split('?')[0];
    // Fields (JSON logs keep them as such); the short msg is what a text log shows.
    const record = { msg: `${req.method} ${path} ${res.statusCode}`, method: req.method, path, status: res.statusCode, durationMs, code: res.getHeader('X-Error-Code') };
    // 'finish' fires outside the request's async context, so restore the trace id explicitly.
    runWithTrace(traceIdOf(req), () => (res.statusCode >= 500 ? logger.error(record) : logger.log(record)));
  });
  next();
}
