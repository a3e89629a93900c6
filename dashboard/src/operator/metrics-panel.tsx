import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import { errorText } from '../api';
import { Chart } from '../ui/chart';
import { colorOf } from '../ui/colors';
import { delta, parsePrometheus, quantile, sum, type Sample } from './prometheus';

interface Point {
  t: number;
  submitted: number;
  terminal: number;
  httpRps: number;
  p50: number | null;
  p95: number | null;
}

const EVERY_MS = 5000;
const KEEP = 120;

/**
 * Throughput and latency from the service's own /metrics (with the admin token, which /metrics
 * accepts), scraped every 5 s while the page is open: rates are the counters' differences
 * between scrapes, percentiles come from the differences of the latency histogram's buckets.
 */
export function MetricsPanel({ adminHeaders }: { adminHeaders: Record<string, string> }) {
  const [points, setPoints] = useState<Point[]>([]);
  const [latest, setLatest] = useState<Sample[]>([]);
  const [error, setError] = useState<string | null>(null);
  const previous = useRef<{ at: number; samples: Sample[] } | null>(null);

  const authorization = adminHeaders.authorization;
  useEffect(() => {
    const scrape = async () => {
      try {
        const res = await fetch('/metrics', { headers: authorization ? { authorization } : {} });
        if (!res.ok) throw new Error(`/metrics answered ${res.status}`);
        const samples = parsePrometheus(await res.text());
        const at = Date.now();
        const before = previous.current;
        previous.current = { at, samples };
        setLatest(samples);
        setError(null);
        if (!before) return;
        const seconds = (at - before.at) / 1000;
        const d = delta(samples, before.samples);
        const point: Point = {
          t: at / 1000,
          submitted: sum(d, 'relay_transactions_submitted_total') / seconds,
          terminal: sum(d, 'relay_transactions_terminal_total') / seconds,
          httpRps: sum(d, 'http_request_duration_seconds_count') / seconds,
          p50: quantile(d, 'relay_transaction_latency_seconds', 0.5),
          p95: quantile(d, 'relay_transaction_latency_seconds', 0.95),
        };
        setPoints((ps) => [...ps, point].slice(-KEEP));
      } catch (err) {
        setError(errorText(err));
      }
    };
    void scrape();
    const timer = setInterval(scrape, EVERY_MS);
    return () => clearInterval(timer);
  }, [authorization]);

  const x = useMemo(() => points.map((p) => p.t), [points]);
  const throughput = useMemo(
    () => [
      { label: 'submitted/s', color: colorOf(0), values: points.map((p) => round(p.submitted)) },
      { label: 'final/s', color: colorOf(1), values: points.map((p) => round(p.terminal)) },
      { label: 'HTTP req/s', color: colorOf(2), values: points.map((p) => round(p.httpRps)) },
    ],
    [points],
  );
  const latency = useMemo(
    () => [
      { label: 'p50 (s)', color: colorOf(0), values: points.map((p) => p.p50) },
      { label: 'p95 (s)', color: colorOf(3), values: points.map((p) => p.p95) },
    ],
    [points],
  );
  const queues = latest.filter((s) => /queue/.test(s.name) && !s.name.endsWith('_bucket'));
  const totals = {
    submitted: sum(latest, 'relay_transactions_submitted_total'),
    executed: sum(latest, 'relay_transactions_terminal_total', (l) => l.status?.toUpperCase() === 'EXECUTED'),
    failed: sum(latest, 'relay_transactions_terminal_total', (l) => l.status?.toUpperCase() === 'FAILED'),
  };

  return (
    <>
      <section class="card">
        <header class="card-head">
          <h2>Throughput</h2>
          <span class="muted small">
            since start: {totals.submitted} submitted · {totals.executed} executed · {totals.failed} failed
          </span>
        </header>
        {error && <div class="error">{error}</div>}
        <Chart testId="throughput-chart" kind="lines" x={x} series={throughput} height={180} minSpan={300} emptyText="Collecting samples (every 5 s)…" />
      </section>
      <section class="card">
        <header class="card-head">
          <h2>Relay latency</h2>
          <span class="muted small">accepted → final, per 5 s window</span>
        </header>
        <Chart testId="latency-chart" kind="lines" x={x} series={latency} height={180} minSpan={300} yFormat={(v) => `${v}s`} emptyText="Collecting samples (every 5 s)…" />
        <h3>Queue depths</h3>
        {queues.length === 0 ? (
          <div class="muted small">This server does not export queue depth metrics.</div>
        ) : (
          <table class="table compact">
            <tbody>
              {queues.map((q) => (
                <tr data-testid="queue-row">
                  <td class="mono">{q.name}</td>
                  <td class="muted small">{Object.entries(q.labels).map(([k, v]) => `${k}=${v}`).join(' ')}</td>
                  <td class="num">{q.value}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </section>
    </>
  );
}

function round(v: number): number {
  return Math.round(v * 100) / 100;
}
