import { useEffect, useRef } from 'preact/hooks';
import uPlot, { type AlignedData, type Options } from 'uplot';

export interface ChartSeries {
  label: string;
  color: string;
  values: Array<number | null>;
}

export interface ChartProps {
  /** x values: unix seconds */
  x: number[];
  series: ChartSeries[];
  kind: 'bars' | 'lines';
  height?: number;
  /** y-axis tick text */
  yFormat?: (v: number) => string;
  testId?: string;
  emptyText?: string;
  /** Shortest x range shown, in seconds: a few samples still read as a time line, not a point in years. */
  minSpan?: number;
}

/**
 * uPlot on a canvas. Bars are stacked: each series is drawn as the running sum of itself and
 * the series after it, biggest first, so every bar shows its total and each chain's share.
 */
export function Chart({ x, series, kind, height = 220, yFormat, testId, emptyText = 'No data yet', minSpan = 0 }: ChartProps) {
  const host = useRef<HTMLDivElement>(null);
  const plot = useRef<uPlot | null>(null);
  const points = series.reduce((n, s) => n + s.values.filter((v) => v !== null && v !== 0).length, 0);

  useEffect(() => {
    const el = host.current;
    if (!el || x.length === 0) return undefined;
    // Stacked bars: tallest (the sum of all) drawn first, each later series on top of it.
    const shown = kind === 'bars' ? [...series].sort((a, b) => total(b) - total(a)) : series;
    const drawn = kind === 'bars' ? stacked(shown) : shown.map((s) => s.values);
    const data = [x, ...drawn] as AlignedData;
    const bars = uPlot.paths.bars?.({ size: [0.7, 48], align: 0 });
    const options: Options = {
      width: Math.max(el.clientWidth, 200),
      height,
      legend: { show: true, live: false },
      cursor: { points: { show: kind === 'lines' } },
      scales: { x: minSpan > 0 ? { time: true, auto: false, range: [Math.min(x[0], x[x.length - 1] - minSpan), x[x.length - 1]] } : { time: true }, y: { range: (_u, min, max) => [Math.min(0, min), max > 0 ? max * 1.1 : 1] } },
      axes: [
        { stroke: '#8a93a6', grid: { stroke: '#eef0f4' }, ticks: { stroke: '#eef0f4' } },
        { stroke: '#8a93a6', grid: { stroke: '#eef0f4' }, ticks: { stroke: '#eef0f4' }, size: 64, values: (_u, ticks) => ticks.map((t) => (yFormat ? yFormat(t) : String(t))) },
      ],
      series: [
        {},
        ...shown.map((s) => ({
          label: s.label,
          stroke: s.color,
          width: kind === 'bars' ? 0 : 2,
          fill: kind === 'bars' ? s.color : `${s.color}22`,
          paths: kind === 'bars' ? bars : undefined,
          points: { show: kind === 'lines' && x.length < 12, size: 6 },
          value: (_u: uPlot, _v: number | null, _si: number, idx: number | null) => {
            const v = idx === null ? null : s.values[idx];
            return v === null || v === undefined ? '—' : yFormat ? yFormat(v) : String(v);
          },
        })),
      ],
    };
    plot.current?.destroy();
    plot.current = new uPlot(options, data, el);
    const resize = () => plot.current?.setSize({ width: Math.max(el.clientWidth, 200), height });
    window.addEventListener('resize', resize);
    return () => {
      window.removeEventListener('resize', resize);
      plot.current?.destroy();
      plot.current = null;
    };
  }, [x, series, kind, height, minSpan]);

  return (
    <div class="chart" data-testid={testId} data-points={points}>
      {x.length === 0 ? <div class="empty">{emptyText}</div> : <div ref={host} />}
    </div>
  );
}

function total(s: ChartSeries): number {
  return s.values.reduce<number>((a, v) => a + (v ?? 0), 0);
}

/** Series k becomes the sum of series k..n (they come sorted by total, biggest first). */
function stacked(series: ChartSeries[]): Array<Array<number | null>> {
  const length = series[0]?.values.length ?? 0;
  const out: Array<Array<number | null>> = series.map(() => new Array<number | null>(length).fill(null));
  for (let k = 0; k < length; k++) {
    let sum = 0;
    for (let i = series.length - 1; i >= 0; i--) {
      const v = series[i].values[k] ?? 0;
      sum += v;
      out[i][k] = v === 0 ? null : sum;
    }
  }
  return out;
}
