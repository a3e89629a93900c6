import type { RelayClient } from '@gas-relay/sdk';
import { useMemo } from 'preact/hooks';
import { unwrap } from '../api';
import { Chart } from '../ui/chart';
import { colorOf } from '../ui/colors';
import { usePoll } from '../ui/use-poll';

const EVERY_MS = 5000;
const MINUTES = 10;

/**
 * Throughput and latency of the whole deployment from GET /admin/operator/figures: 10-second
 * buckets every process adds to in Redis, the PENDING backlog from PostgreSQL and BullMQ's queue
 * depths, so the charts are the same whichever API instance the load balancer picks (a scrape
 * of one instance's /metrics was not). Polled every 5 s while the page is open.
 */
export function MetricsPanel({ client, adminHeaders }: { client: RelayClient; adminHeaders: Record<string, string> }) {
  const figures = usePoll(() => unwrap(client.api.GET('/admin/operator/figures', { params: { query: { minutes: MINUTES } }, headers: adminHeaders })), EVERY_MS, [client]);
  const f = figures.data;
  const series = f?.series ?? [];
  const per = f?.bucketSeconds ?? 10;

  const x = useMemo(() => series.map((p) => p.t), [series]);
  const throughput = useMemo(
    () => [
      { label: 'submitted/s', color: colorOf(0), values: series.map((p) => round(p.submitted / per)) },
      { label: 'executed/s', color: colorOf(1), values: series.map((p) => round(p.executed / per)) },
      { label: 'failed/s', color: colorOf(3), values: series.map((p) => round(p.failed / per)) },
    ],
    [series, per],
  );
  const latency = useMemo(
    () => [
      { label: 'p50 (s)', color: colorOf(0), values: series.map((p) => p.p50) },
      { label: 'p95 (s)', color: colorOf(3), values: series.map((p) => p.p95) },
    ],
    [series],
  );

  return (
    <>
      <section class="card">
        <header class="card-head">
          <h2>Throughput</h2>
          <span class="muted small" data-testid="fleet-totals">
            last {MINUTES} min, all instances: {f?.totals.submitted ?? '…'} submitted · {f?.totals.executed ?? '…'} executed · {f?.totals.failed ?? '…'} failed · {f?.pending ?? '…'} pending now
          </span>
        </header>
        {figures.error && <div class="error">{figures.error}</div>}
        <Chart testId="throughput-chart" kind="lines" x={x} series={throughput} height={180} minSpan={300} emptyText="Loading…" />
      </section>
      <section class="card">
        <header class="card-head">
          <h2>Relay latency</h2>
          <span class="muted small">accepted → final, per {per} s bucket</span>
        </header>
        <Chart testId="latency-chart" kind="lines" x={x} series={latency} height={180} minSpan={300} yFormat={(v) => `${v}s`} emptyText="Loading…" />
        <h3>Queue depths</h3>
        <table class="table compact">
          <thead>
            <tr>
              <th>Queue</th>
              <th class="num">Waiting</th>
              <th class="num">Active</th>
              <th class="num">Delayed</th>
            </tr>
          </thead>
          <tbody>
            {(f?.queues ?? []).map((q) => (
              <tr data-testid="queue-row" data-queue={q.queue}>
                <td class="mono">{q.queue}</td>
                <td class="num">{q.waiting}</td>
                <td class="num">{q.active}</td>
                <td class="num">{q.delayed}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </section>
    </>
  );
}

function round(v: number): number {
  return Math.round(v * 100) / 100;
}
