import type { Chain, RelayClient } from '@gas-relay/sdk';
import { useMemo, useState } from 'preact/hooks';
import { unwrap, type Schemas } from '../api';
import { Chart } from '../ui/chart';
import { colorOf } from '../ui/colors';
import { usd } from '../ui/format';
import { usePoll } from '../ui/use-poll';

type Spend = Schemas['SpendDto'];
const BUCKET_S = { hour: 3600, day: 86400 } as const;

export function SpendPanel({ client, chains, refreshKey }: { client: RelayClient; chains: Chain[]; refreshKey: number }) {
  const [bucket, setBucket] = useState<'hour' | 'day'>('hour');
  const spend = usePoll(() => unwrap(client.api.GET('/api/spend', { params: { query: { bucket } } })), 30_000, [client, bucket, refreshKey]);
  const chart = useMemo(() => toChart(spend.data, chains), [spend.data, chains]);

  return (
    <section class="card wide">
      <header class="card-head">
        <h2>Spend</h2>
        <span class="muted">{spend.data ? `${usd(spend.data.totalSpent)} in the range` : ''}</span>
        <div class="filters">
          <div class="toggle">
            {(['hour', 'day'] as const).map((b) => (
              <button class={bucket === b ? 'on' : ''} onClick={() => setBucket(b)} data-testid={`spend-bucket-${b}`}>
                per {b}
              </button>
            ))}
          </div>
        </div>
      </header>
      {spend.error && <div class="error">{spend.error}</div>}
      <Chart testId="spend-chart" kind="bars" x={chart.x} series={chart.series} yFormat={(v) => usd(v)} emptyText="No charges in this range yet." />
    </section>
  );
}

/** Every bucket of the range on the x axis (empty ones too), one series per chain. */
function toChart(spend: Spend | null, chains: Chain[]) {
  if (!spend || spend.points.length === 0) return { x: [] as number[], series: [] };
  const step = BUCKET_S[spend.bucket as 'hour' | 'day'];
  const start = Date.parse(spend.since) / 1000;
  const end = Math.floor(Date.now() / 1000 / step) * step;
  const x: number[] = [];
  for (let t = start; t <= end; t += step) x.push(t);
  const chainIds = [...new Set(spend.points.map((p) => p.chainId))];
  const series = chainIds.map((id, i) => {
    const values = x.map(() => 0 as number | null);
    for (const p of spend.points) {
      if (p.chainId !== id) continue;
      const at = Math.round((Date.parse(p.bucket) / 1000 - start) / step);
      if (at >= 0 && at < values.length) values[at] = (values[at] ?? 0) + p.spent;
    }
    const name = id === null ? 'other' : (chains.find((c) => c.id === id)?.name ?? `chain ${id}`);
    return { label: name, color: colorOf(i), values };
  });
  return { x, series };
}
