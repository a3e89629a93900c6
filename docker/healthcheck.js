#!/usr/bin/env node
// The image's HEALTHCHECK (plain Node, no dependencies). api/all: GET /health on PORT must answer
// 200 (ok or degraded; 503 when PostgreSQL or Redis is down). worker: it has no API port, so
// GET /metrics on METRICS_PORT must answer 200; a worker without METRICS_PORT has nothing to ask
// and is reported healthy while its process runs.
'use strict';

const role = process.env.APP_ROLE || 'all';
const target =
  role === 'worker'
    ? process.env.METRICS_PORT && { port: process.env.METRICS_PORT, path: '/metrics' }
    : { port: process.env.PORT || '3000', path: '/health' };

if (!target) process.exit(0);

const timeout = Number(process.env.HEALTHCHECK_TIMEOUT_MS || 4000);
fetch(`http://127.0.0.1:${target.port}${target.path}`, { signal: AbortSignal.timeout(timeout) }).then(
  (res) => {
    if (res.status !== 200) console.error(`healthcheck: ${target.path} answered ${res.status}`);
    process.exit(res.status === 200 ? 0 : 1);
  },
  (err) => {
    console.error(`healthcheck: ${target.path} unreachable (${err.message})`);
    process.exit(1);
  },
);
