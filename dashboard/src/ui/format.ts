export function usd(value: number | null | undefined, digits = 2): string {
  if (value === null || value === undefined) return '—';
  const abs = Math.abs(value);
  const d = abs !== 0 && abs < 0.01 ? 6 : digits;
  return `$${value.toLocaleString('en-US', { minimumFractionDigits: d, maximumFractionDigits: d })}`;
}

export function shortHex(hex: string | null | undefined, head = 6, tail = 4): string {
  if (!hex) return '—';
  return hex.length <= head + tail + 2 ? hex : `${hex.slice(0, head + 2)}…${hex.slice(-tail)}`;
}

export function time(iso: string | null | undefined): string {
  if (!iso) return '—';
  const d = new Date(iso);
  return d.toLocaleString('en-GB', { hour12: false, year: 'numeric', month: 'short', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit' });
}

export function ms(value: number | null | undefined): string {
  if (value === null || value === undefined) return '—';
  return value < 1000 ? `${Math.round(value)} ms` : `${(value / 1000).toFixed(2)} s`;
}

export function amount(text: string | null | undefined, digits = 4): string {
  if (text === null || text === undefined) return '—';
  const n = Number(text);
  return Number.isFinite(n) ? n.toLocaleString('en-US', { maximumFractionDigits: digits }) : text;
}
