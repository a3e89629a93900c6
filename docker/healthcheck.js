#!/usr/bin/env node
// The image's HEALTHCHECK (plain Node, no dependencies): GET /readyz must answer 200 (503 when
// PostgreSQL or Redis is down or no chain has a healthy provider). Every role serves it on
// METRICS_PORT when set, else on PORT (a worker without METRICS_PORT listens on PORT).
'use strict';

const target = { port: process.env.METRICS_PORT || process.env.PORT || '3000', path: '/readyz' };

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
