import { Injectable, NestMiddleware } from '@nestjs/common';
import type { NextFunction, Request, Response } from 'express';
import { MetricsService } from './metrics.service';

/** Times every request; the route label is the matched pattern so ids do not explode cardinality. */
@Injectable()
export class HttpMetricsMiddleware implements NestMiddleware {
  constructor(private readonly metrics: MetricsService) {}

  use(req: Request, res: Response, next: NextFunction): void {
    const stop = this.metrics.httpDuration.startTimer();
    res.on('finish', () => {
      const route = (req.route as { path?: string } | undefined)?.path ?? 'unmatched';
      const labels = { method: req.method, route: `${req.baseUrl}${route}`, status: String(res.statusCode) };
      stop(labels);
      // The exception filter names the catalog code of every error envelope in X-Error-Code.
      if (res.statusCode >= 400) this.metrics.httpErrors.inc({ ...labels, code: String(res.getHeader('X-Error-Code') ?? 'none') });
    });
    next();
  }
}
