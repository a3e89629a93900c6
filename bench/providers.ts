/**
 * `npm run bench:providers`: what many providers cost in latency. The same relay, in the same
 * run, against one anvil reached
 *   A. through one healthy provider, and
 *   B. through three: one dead (connections cut), one lagging 3 s, one healthy
 *      (docs/spec/extensions.md, "RPC providers"),
 * with 1 s blocks. Prints p50 and p90 submission-to-EXECUTED (the row's settled_at − created_at)
 * of each, and the ratio B/A of the p50s (target ≤ 2), then one JSON line.
 *
 * Uses the integration tier's test bed (test/support/chain-conditions): its database and Redis
 * (TEST_DATABASE_URL, TEST_REDIS_URL, recreated like `jest` does) and ports from
 * TEST_CONDITIONS_PORT + 70. Settings: BENCH_PROVIDERS_N [40] transactions per side.
 * Exits 1 when a side leaves a transaction not EXECUTED; BENCH_ENFORCE=1 also when the ratio is above 2.
 */
import 'reflect-metadata';
import globalSetup from '../test/support/global-setup';
import globalTeardown from '../test/support/global-teardown';
import { CONDITIONS_PORT, Scenario, startScenario } from '../test/support/chain-conditions/scenario';
import type { ProxyOptions } from '../test/support/chain-conditions/rpc-proxy';

const N = Number(process.env.BENCH_PROVIDERS_N ?? 40);

interface Side {
  label: string;
  p50Ms: number;
  p90Ms: number;
  statuses: Record<string, number>;
}

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((sorted.length - 1) * p))];
}

async function side(label: string, chainId: number, basePort: number, providers: Array<Partial<ProxyOptions>>): Promise<Side> {
  let s: Scenario | undefined;
  try {
    s = await startScenario({ name: `bench-${label}`, chainId, basePort, providers, confirmations: 2 });
    await s.chain.intervalMining(1);
    // Warm-up: the first transaction of a fresh app pays for connections and caches.
    await s.drain(await s.submit(2), 30_000);
    const batch = await s.submit(N);
    await s.drain(batch, 120_000);
    const rows: Array<{ status: string; ms: number | null }> = await s.db.query(
      `SELECT status, (EXTRACT(EPOCH FROM (settled_at - created_at)) * 1000)::float8 AS ms FROM relay_transactions WHERE id = ANY($1)`,
      [batch.txIds],
    );
    const statuses: Record<string, number> = {};
    for (const r of rows) statuses[r.status] = (statuses[r.status] ?? 0) + 1;
    const ms = rows
      .filter((r) => r.status === 'EXECUTED' && r.ms !== null)
      .map((r) => Number(r.ms))
      .sort((a, b) => a - b);
    return { label, p50Ms: Math.round(percentile(ms, 0.5)), p90Ms: Math.round(percentile(ms, 0.9)), statuses };
  } finally {
    await s?.stop();
  }
}

async function main(): Promise<void> {
  await globalSetup();
  try {
    const single = await side('single-healthy', 31471, CONDITIONS_PORT + 70, [{}]);
    const three = await side('dead-lagging-healthy', 31472, CONDITIONS_PORT + 75, [{ dead: true }, { lagMs: 3000 }, {}]);
    const ratio = three.p50Ms / single.p50Ms;
    for (const r of [single, three]) console.log(`${r.label.padEnd(22)} p50 ${String(r.p50Ms).padStart(6)} ms   p90 ${String(r.p90Ms).padStart(6)} ms   ${JSON.stringify(r.statuses)}`);
    console.log(`ratio p50 (three providers / one healthy): ${ratio.toFixed(2)} (target ≤ 2)`);
    console.log(JSON.stringify({ n: N, single, three, ratio: Number(ratio.toFixed(3)) }));
    const incomplete = [single, three].filter((r) => r.statuses.EXECUTED !== N);
    if (incomplete.length > 0) {
      console.error(`not every transaction EXECUTED: ${incomplete.map((r) => r.label).join(', ')}`);
      process.exitCode = 1;
    } else if (process.env.BENCH_ENFORCE === '1' && ratio > 2) {
      console.error('ratio above 2');
      process.exitCode = 1;
    }
  } finally {
    await globalTeardown();
  }
}

main().then(
  () => process.exit(process.exitCode ?? 0),
  (err: unknown) => {
    console.error(err);
    process.exit(1);
  },
);
