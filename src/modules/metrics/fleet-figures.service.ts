import { Inject, Injectable, Logger, OnApplicationShutdown, OnModuleInit } from '@nestjs/common';
import Redis from 'ioredis';
import { REDIS } from '../../redis/redis.module';

/** Width of one bucket of the fleet's series (seconds) and how long Redis keeps one. */
export const FLEET_BUCKET_SECONDS = 10;
const FLEET_KEEP_SECONDS = 2 * 3600;
const FLUSH_MS = 1000;

/** Upper bounds (seconds) of the latency buckets, as relay_transaction_latency_seconds has them. */
export const LATENCY_BOUNDS = [0.05, 0.1, 0.25, 0.5, 1, 2, 5, 10, 30, 60, 300, Infinity] as const;

export interface FleetBucket {
  /** Start of the bucket (Unix seconds). */
  t: number;
  submitted: number;
  executed: number;
  failed: number;
  /** Count of settled transactions per latency bucket (LATENCY_BOUNDS order). */
  latency: number[];
}

/**
 * The relay's throughput and latency for the whole deployment, not one process: every process
 * adds what it counted (submissions, final statuses, acceptance-to-final latency) to shared
 * 10-second buckets in Redis (`fleet:<t>` hashes, kept two hours), so every API instance answers
 * the operator dashboard the same figures. Counts are buffered in memory and flushed once a
 * second in one pipeline: nothing on the request path but a map update. Redis losing its data
 * loses the recent series, nothing else.
 */
@Injectable()
export class FleetFigures implements OnModuleInit, OnApplicationShutdown {
  private readonly logger = new Logger(FleetFigures.name);
  private pending = new Map<number, Map<string, number>>();
  private timer?: NodeJS.Timeout;

  constructor(@Inject(REDIS) private readonly redis: Redis) {}

  onModuleInit(): void {
    this.timer = setInterval(() => void this.flush(), FLUSH_MS);
    this.timer.unref();
  }

  async onApplicationShutdown(): Promise<void> {
    clearInterval(this.timer);
    await this.flush();
  }

  submitted(): void {
    this.add('submitted', 1);
  }

  /** A transaction reached EXECUTED or FAILED after `latencySeconds` from its acceptance. */
  finished(status: string, latencySeconds: number): void {
    this.add(status === 'EXECUTED' ? 'executed' : 'failed', 1);
    this.add(`lat:${LATENCY_BOUNDS.findIndex((b) => latencySeconds <= b)}`, 1);
  }

  private add(field: string, n: number): void {
    const t = bucketOf(Date.now());
    let fields = this.pending.get(t);
    if (!fields) this.pending.set(t, (fields = new Map()));
    fields.set(field, (fields.get(field) ?? 0) + n);
  }

  /** Writes the buffered counts; on a Redis error they are kept for the next flush. */
  async flush(): Promise<void> {
    if (this.pending.size === 0) return;
    const batch = this.pending;
    this.pending = new Map();
    const pipeline = this.redis.pipeline();
    for (const [t, fields] of batch) {
      for (const [field, n] of fields) pipeline.hincrby(`fleet:${t}`, field, n);
      pipeline.expire(`fleet:${t}`, FLEET_KEEP_SECONDS);
    }
    try {
      const results = await pipeline.exec();
      const failed = results?.find(([err]) => err);
      if (failed) throw failed[0];
    } catch (err) {
      // Put them back (a failed pipeline may have applied part of it: at most one second counted twice).
      for (const [t, fields] of batch) for (const [field, n] of fields) {
        let now = this.pending.get(t);
        if (!now) this.pending.set(t, (now = new Map()));
        now.set(field, (now.get(field) ?? 0) + n);
      }
      this.logger.warn(`could not write the fleet figures to Redis: ${(err as Error).message}`);
    }
  }

  /** The buckets from `fromMs` to `toMs` (whole buckets, oldest first; empty ones as zeros). */
  async series(fromMs: number, toMs: number): Promise<FleetBucket[]> {
    const starts: number[] = [];
    for (let t = bucketOf(fromMs); t <= bucketOf(toMs); t += FLEET_BUCKET_SECONDS) starts.push(t);
    const pipeline = this.redis.pipeline();
    for (const t of starts) pipeline.hgetall(`fleet:${t}`);
    const results = (await pipeline.exec()) ?? [];
    return starts.map((t, i) => {
      const [err, raw] = results[i] ?? [null, {}];
      if (err) throw err;
      const h = (raw ?? {}) as Record<string, string>;
      const n = (f: string) => Number(h[f] ?? 0);
      return { t, submitted: n('submitted'), executed: n('executed'), failed: n('failed'), latency: LATENCY_BOUNDS.map((_, b) => n(`lat:${b}`)) };
    });
  }
}

function bucketOf(ms: number): number {
  const s = Math.floor(ms / 1000);
  return s - (s % FLEET_BUCKET_SECONDS);
}

/** The q-quantile of latency bucket counts: the upper bound of the bucket that reaches it (null with no data; the last finite bound for the open one). */
export function latencyQuantile(counts: number[], q: number): number | null {
  const total = counts.reduce((a, b) => a + b, 0);
  if (total === 0) return null;
  let seen = 0;
  for (let i = 0; i < counts.length; i++) {
    seen += counts[i];
    if (seen >= q * total) return Number.isFinite(LATENCY_BOUNDS[i]) ? LATENCY_BOUNDS[i] : LATENCY_BOUNDS[LATENCY_BOUNDS.length - 2];
  }
  return null;
}
