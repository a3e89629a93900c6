import { EventEmitter } from 'node:events';
import type { Request, Response } from 'express';
import { Counter, Histogram, Registry } from 'prom-client';
import { httpMetricsMiddleware } from './http-metrics.middleware';

describe('httpMetricsMiddleware', () => {
  function setup() {
    const registry = new Registry();
    const httpDuration = new Histogram({ name: 'd', help: 'd', labelNames: ['method', 'route', 'status'], registers: [registry] });
    const httpErrors = new Counter({ name: 'e', help: 'e', labelNames: ['method', 'route', 'status', 'code'], registers: [registry] });
    const labels = jest.spyOn(httpDuration, 'labels');
    const errorLabels = jest.spyOn(httpErrors, 'labels');
    const middleware = httpMetricsMiddleware({ httpDuration, httpErrors });
    const request = (path: string | undefined, status: number, code?: string) => {
      const req = { method: 'POST', baseUrl: '', route: path === undefined ? undefined : { path } } as unknown as Request;
      const res = Object.assign(new EventEmitter(), { req, statusCode: status, getHeader: (name: string) => (name === 'X-Error-Code' ? code : undefined) }) as unknown as Response;
      const next = jest.fn();
      middleware(req, res, next);
      expect(next).toHaveBeenCalledTimes(1);
      res.emit('finish');
      // A second 'finish' (never sent by Node) would not count twice: the listener was once().
      res.emit('finish');
    };
    return { registry, labels, errorLabels, request };
  }

  it('times each request under its route pattern and status, one child per label set', async () => {
    const { registry, labels, request } = setup();
    request('/api/submit-tx', 201);
    request('/api/submit-tx', 201);
    request('/api/submit-tx', 201);
    request(undefined, 404, 'RESOURCE_001');
    expect(labels).toHaveBeenCalledTimes(2);
    const text = await registry.metrics();
    expect(text).toMatch(/^d_count\{method="POST",route="\/api\/submit-tx",status="201"\} 3$/m);
    expect(text).toMatch(/^d_count\{method="POST",route="unmatched",status="404"\} 1$/m);
  });

  it('counts errors by catalog code', async () => {
    const { registry, errorLabels, request } = setup();
    request('/api/submit-tx', 401, 'AUTH_001');
    request('/api/submit-tx', 401, 'AUTH_001');
    request('/api/submit-tx', 429, undefined);
    request('/api/submit-tx', 200);
    expect(errorLabels).toHaveBeenCalledTimes(2);
    const text = await registry.metrics();
    expect(text).toMatch(/^e\{method="POST",route="\/api\/submit-tx",status="401",code="AUTH_001"\} 2$/m);
    expect(text).toMatch(/^e\{method="POST",route="\/api\/submit-tx",status="429",code="none"\} 1$/m);
  });
});
