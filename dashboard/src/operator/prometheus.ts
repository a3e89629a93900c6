/** One sample of the Prometheus text format: name, labels, value. */
export interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

const LINE = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})?\s+(\S+)/;
const LABEL = /([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g;

export function parsePrometheus(text: string): Sample[] {
  const samples: Sample[] = [];
  for (const line of text.split('\n')) {
    if (!line || line.startsWith('#')) continue;
    const m = LINE.exec(line);
    if (!m) continue;
    const labels: Record<string, string> = {};
    for (const l of (m[2] ?? '').matchAll(LABEL)) labels[l[1]] = l[2].replace(/\\(.)/g, '$1');
    const value = m[3] === '+Inf' ? Infinity : Number(m[3]);
    if (!Number.isNaN(value)) samples.push({ name: m[1], labels, value });
  }
  return samples;
}

export function sum(samples: Sample[], name: string, where: (labels: Record<string, string>) => boolean = () => true): number {
  return samples.filter((s) => s.name === name && where(s.labels)).reduce((a, s) => a + s.value, 0);
}

/** The q-quantile of a histogram's cumulative buckets (upper bound of the bucket that reaches it). */
export function quantile(samples: Sample[], histogram: string, q: number): number | null {
  const buckets = new Map<number, number>();
  for (const s of samples) {
    if (s.name !== `${histogram}_bucket`) continue;
    const le = s.labels.le === '+Inf' ? Infinity : Number(s.labels.le);
    buckets.set(le, (buckets.get(le) ?? 0) + s.value);
  }
  const sorted = [...buckets.entries()].sort((a, b) => a[0] - b[0]);
  const total = sorted.at(-1)?.[1] ?? 0;
  if (!total) return null;
  const found = sorted.find(([, count]) => count >= q * total);
  return found && Number.isFinite(found[0]) ? found[0] : (sorted.at(-2)?.[0] ?? null);
}

/** Histogram percentiles over the interval between two scrapes (bucket counts subtracted). */
export function delta(now: Sample[], before: Sample[]): Sample[] {
  const key = (s: Sample) => `${s.name}|${JSON.stringify(s.labels)}`;
  const old = new Map(before.map((s) => [key(s), s.value]));
  return now.map((s) => ({ ...s, value: s.value - (old.get(key(s)) ?? 0) }));
}
