/**
 * Per-transaction costs of the relay for docs/scaling.md's capacity model, measured around
 * bench:relay's phase 2 (`BENCH_COSTS=1`):
 *   - PostgreSQL: statements the app sent through `pg` in this process (BENCH_APP=inline; the
 *     bench's own queries excluded), and the bench database's pg_stat_database deltas (commits,
 *     rows written), which include every process;
 *   - Redis: INFO commandstats deltas of the app's Redis and, when the queues are on a cluster
 *     (QUEUE_REDIS_CLUSTER_NODES), of each cluster node. Only meaningful on a Redis of the bench's
 *     own: a shared server counts everyone's commands.
 */
import Redis from 'ioredis';
import { Client } from 'pg';

type QueryFn = (...args: unknown[]) => unknown;

let appStatements = 0;
const excluded = new WeakSet<object>();
let patched = false;

/** Counts every `pg` query of this process from now on, except those of `exclude` (the bench's own client). */
export function countPgStatements(...exclude: object[]): void {
  for (const c of exclude) excluded.add(c);
  if (patched) return;
  patched = true;
  const proto = Client.prototype as unknown as { query: QueryFn };
  const original = proto.query;
  proto.query = function (this: object, ...args: unknown[]) {
    if (!excluded.has(this)) appStatements++;
    return original.apply(this, args);
  };
}

async function commandStats(url: string): Promise<Map<string, number>> {
  const redis = new Redis(url, { maxRetriesPerRequest: 1, lazyConnect: true });
  try {
    await redis.connect();
    const text = await redis.info('commandstats');
    const calls = new Map<string, number>();
    for (const m of text.matchAll(/^cmdstat_([^:]+):calls=(\d+)/gm)) calls.set(m[1], Number(m[2]));
    return calls;
  } finally {
    redis.disconnect();
  }
}

interface PgStats {
  xact_commit: number;
  tup_inserted: number;
  tup_updated: number;
  tup_deleted: number;
  tup_returned: number;
}

async function pgStats(db: Client): Promise<PgStats> {
  // Pending statistics of other backends reach the view within about a second (PostgreSQL 15).
  const { rows } = await db.query(`SELECT xact_commit, tup_inserted, tup_updated, tup_deleted, tup_returned FROM pg_stat_database WHERE datname = current_database()`);
  return Object.fromEntries(Object.entries(rows[0] as Record<string, string>).map(([k, v]) => [k, Number(v)])) as unknown as PgStats;
}

export interface Costs {
  txs: number;
  pgStatementsPerTx: number;
  pg: Record<keyof PgStats, number>;
  redisCommandsPerTx: { app: number; queues: number; appTop: string; queuesTop: string };
}

/** Starts a reading; the returned function reads again and divides by `txs`. */
export async function costMeter(opts: { db: Client; redisUrl: string; clusterNodes?: string }): Promise<(txs: number) => Promise<Costs>> {
  const redisUrls = [opts.redisUrl, ...(opts.clusterNodes ?? '').split(',').filter(Boolean).map((n) => (n.includes('://') ? n : `redis://${n}`))];
  const read = async () => ({
    statements: appStatements,
    pg: await pgStats(opts.db),
    redis: await Promise.all(redisUrls.map(commandStats)),
  });
  const before = await read();
  return async (txs) => {
    await new Promise((r) => setTimeout(r, 1500));
    const after = await read();
    const per = (n: number) => n / Math.max(txs, 1);
    const byCommand = [new Map<string, number>(), new Map<string, number>()];
    const totals = after.redis.map((stats, i) => {
      let sum = 0;
      const into = byCommand[i === 0 ? 0 : 1];
      for (const [cmd, n] of stats) {
        if (cmd === 'info') continue; // our own readings
        const d = n - (before.redis[i].get(cmd) ?? 0);
        sum += d;
        into.set(cmd, (into.get(cmd) ?? 0) + d);
      }
      return sum;
    });
    const top = (m: Map<string, number>) => [...m].filter(([, n]) => n > 0).sort((a, b) => b[1] - a[1]).slice(0, 8).map(([cmd, n]) => `${cmd} ${per(n).toFixed(2)}`).join(', ');
    const pg = Object.fromEntries(Object.keys(after.pg).map((k) => [k, per(after.pg[k as keyof PgStats] - before.pg[k as keyof PgStats])])) as Costs['pg'];
    return {
      txs,
      pgStatementsPerTx: per(after.statements - before.statements),
      pg,
      redisCommandsPerTx: { app: per(totals[0]), queues: per(totals.slice(1).reduce((a, b) => a + b, 0)), appTop: top(byCommand[0]), queuesTop: top(byCommand[1]) },
    };
  };
}
