import type { NextFunction, Request, RequestHandler, Response } from 'express';
import type { Counter, Histogram } from 'prom-client';
import type { MetricsService } from './metrics.service';

/** Label sets seen (method × route × status is small: routes are patterns); past this the children are not kept. */
const MAX_CHILDREN = 2_000;
const STARTED = Symbol('http-metrics:started');

type Timed = Response & { [STARTED]?: bigint; req: Request };
type HistogramChild = ReturnType<Histogram<string>['labels']>;
type CounterChild = ReturnType<Counter<string>['labels']>;

/**
 * Times every request; the route label is the matched pattern so ids do not explode cardinality.
 * Plain Express middleware, installed last before routing (configureApp): one shared 'finish'
 * listener (no closure per request) and the histogram's child per label set kept, so a request
 * costs a map lookup instead of prom-client hashing its labels.
 */
export function httpMetricsMiddleware(metrics: Pick<MetricsService, 'httpDuration' | 'httpErrors'>): RequestHandler {
  const durations = new Map<string, HistogramChild>();
  const errors = new Map<string, CounterChild>();

  function onFinish(this: Timed): void {
    observe(this);
  }

  function observe(res: Timed): void {
    const req = res.req;
    const started = res[STARTED];
    if (started === undefined) return;
    const route = `${req.baseUrl}${(req.route as { path?: string } | undefined)?.path ?? 'unmatched'}`;
    const status = res.statusCode;
    const key = `${req.method} ${status} ${route}`;
    let child = durations.get(key);
    if (!child) {
      child = metrics.httpDuration.labels({ method: req.method, route, status: String(status) });
      if (durations.size < MAX_CHILDREN) durations.set(key, child);
    }
    child.observe(Number(process.hrtime.bigint() - started) / 1e9);
    if (status < 400) return;
    // The exception filter names the catalog code of every error envelope in X-Error-Code.
    const code = String(res.getHeader('X-Error-Code') ?? 'none');
    const errorKey = `${key} ${code}`;
    let counter = errors.get(errorKey);
    if (!counter) {
      counter = metrics.httpErrors.labels({ method: req.method, route, status: String(status), code });
      if (errors.size < MAX_CHILDREN) errors.set(errorKey, counter);
    }
    counter.inc();
  }

  return (_req: Request, res: Response, next: NextFunction) => {
    (res as Timed)[STARTED] = process.hrtime.bigint();
    res.once('finish', onFinish);
    next();
  };
}
