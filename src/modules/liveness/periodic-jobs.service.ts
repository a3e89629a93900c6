import { Inject, Injectable, Logger, OnApplicationShutdown } from '@nestjs/common';
import { Queue } from 'bullmq';
import Redis, { Cluster } from 'ioredis';
import { runDetached } from '../../common/trace/tracing';
import { QueueConnection } from '../../redis/queue-connection';
import { REDIS } from '../../redis/redis.module';
import { MetricsService } from '../metrics';

export interface PeriodicJob {
  /** BullMQ job scheduler id, unique across the app. */
  id: string;
  queue: Queue;
  everyMs: number;
  /** Job name the processor receives. */
  name: string;
}

/** Work that only Redis remembered (delayed jobs, schedules): rebuilt from PostgreSQL after a loss. */
export type RecoveryHook = () => Promise<unknown>;

/** Present while Redis still has the data the workers wrote; gone after FLUSHDB or a fresh Redis. */
const SENTINEL_KEY = 'liveness:sentinel';
const DEFAULT_CHECK_MS = 5_000;

/**
 * BullMQ keeps schedules and delayed jobs only in Redis, so a Redis that loses its data (flush,
 * failover to an empty replica, eviction) silently stops every periodic job. This watchdog runs
 * on an in-process timer, not on Redis: each pass re-registers any missing schedule and, when the
 * sentinel key is gone, runs the recovery hooks that re-enqueue work from PostgreSQL. It also
 * checks at once when the Redis connection comes back. Safe in any number of workers: schedules
 * are upserts and every hook is idempotent.
 */
@Injectable()
export class PeriodicJobs implements OnApplicationShutdown {
  private readonly logger = new Logger(PeriodicJobs.name);
  private readonly jobs = new Map<string, PeriodicJob>();
  private readonly hooks = new Map<string, RecoveryHook>();
  private timer?: NodeJS.Timeout;
  private checkMs = DEFAULT_CHECK_MS;
  private running: Promise<void> | null = null;
  private stopped = false;
  private readonly onReady = () => void this.check('redis reconnected');
  private readonly sentinel: { client: Redis | Cluster; key: string };

  constructor(
    @Inject(REDIS) private readonly redis: Redis,
    private readonly metrics: MetricsService,
    queues: QueueConnection,
  ) {
    // The sentinel lives with the queues: on a queue cluster it is the cluster's data that matters.
    const onCluster = queues.clusterKey('liveness:sentinel');
    this.sentinel = onCluster ?? { client: this.redis, key: SENTINEL_KEY };
    this.sentinel.client.on('ready', this.onReady);
  }

  /** Registers (upserts) the schedule now and keeps it registered. */
  async schedule(job: PeriodicJob): Promise<void> {
    this.jobs.set(job.id, job);
    await job.queue.upsertJobScheduler(job.id, { every: job.everyMs }, { name: job.name });
    this.arm(Math.min(this.checkMs, job.everyMs));
  }

  /** `hook` runs after Redis is found to have lost its data. */
  onRedisLoss(name: string, hook: RecoveryHook): void {
    this.hooks.set(name, hook);
    this.arm(this.checkMs);
  }

  onApplicationShutdown(): void {
    this.stopped = true;
    clearInterval(this.timer);
    this.sentinel.client.off('ready', this.onReady);
  }

  /** One watchdog pass; concurrent callers share the running one. */
  check(reason = 'watchdog'): Promise<void> {
    if (this.stopped) return Promise.resolve();
    this.running ??= runDetached(`liveness-${Date.now()}`, () => this.pass(reason)).finally(() => {
      this.running = null;
    });
    return this.running;
  }

  private arm(ms: number): void {
    if (this.stopped || (this.timer && ms >= this.checkMs)) return;
    this.checkMs = ms;
    clearInterval(this.timer);
    this.timer = setInterval(() => void this.check(), ms);
    this.timer.unref();
  }

  private async pass(reason: string): Promise<void> {
    try {
      for (const job of this.jobs.values()) {
        if (await job.queue.getJobScheduler(job.id)) continue;
        await job.queue.upsertJobScheduler(job.id, { every: job.everyMs }, { name: job.name });
        this.metrics.schedulesRestored.inc({ job: job.id });
        this.logger.warn(`schedule ${job.id} was missing from Redis (${reason}); registered again`);
      }
      // SET NX succeeds only when the key is absent: the first pass of a fresh or flushed Redis.
      const fresh = (await this.sentinel.client.set(this.sentinel.key, String(Date.now()), 'NX')) === 'OK';
      if (!fresh) return;
      for (const [name, hook] of this.hooks) {
        try {
          await hook();
          this.metrics.redisLossRecoveries.inc({ hook: name });
        } catch (err) {
          // The sentinel is dropped so the next pass runs the hooks again.
          await this.sentinel.client.del(this.sentinel.key).catch(() => undefined);
          this.logger.warn(`recovery ${name} after Redis data loss failed, retrying next pass: ${(err as Error).message}`);
        }
      }
    } catch (err) {
      this.logger.warn(`liveness check failed (${reason}): ${(err as Error).message}`);
    }
  }
}
