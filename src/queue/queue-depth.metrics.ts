import { Injectable, OnModuleDestroy } from '@nestjs/common';
import { Queue } from 'bullmq';
import Redis from 'ioredis';
import { Gauge } from 'prom-client';
import { AppConfig } from '../config/app-config';
import { MetricsService } from '../modules/metrics';
import { QUEUES } from './queue-names';

const STATES = ['waiting', 'active', 'delayed'] as const;

/**
 * `bull_queue_jobs{queue,state}`: jobs waiting, active and delayed per BullMQ queue, read when
 * /metrics is scraped (one connection shared by read-only Queue handles, created on first scrape).
 */
@Injectable()
export class QueueDepthMetrics implements OnModuleDestroy {
  private connection?: Redis;
  private queues?: Queue[];

  constructor(
    private readonly config: AppConfig,
    metrics: MetricsService,
  ) {
    // eslint-disable-next-line @typescript-eslint/no-this-alias
    const self = this;
    new Gauge({
      name: 'bull_queue_jobs',
      help: 'BullMQ jobs by queue and state (waiting, active, delayed)',
      labelNames: ['queue', 'state'],
      registers: [metrics.registry],
      async collect() {
        for (const queue of self.handles()) {
          const counts = await queue.getJobCounts(...STATES).catch(() => null);
          if (!counts) continue;
          for (const state of STATES) this.set({ queue: queue.name, state }, counts[state] ?? 0);
        }
      },
    });
  }

  /** Jobs waiting, active and delayed in every queue, read from Redis now: the same for every process of the deployment. */
  async depths(): Promise<Array<{ queue: string; waiting: number; active: number; delayed: number }>> {
    return Promise.all(
      this.handles().map(async (queue) => {
        const counts = await queue.getJobCounts(...STATES);
        return { queue: queue.name, waiting: counts.waiting ?? 0, active: counts.active ?? 0, delayed: counts.delayed ?? 0 };
      }),
    );
  }

  private handles(): Queue[] {
    if (!this.queues) {
      this.connection = new Redis(this.config.REDIS_URL, { maxRetriesPerRequest: 1, lazyConnect: false });
      this.connection.on('error', () => undefined);
      const prefix = `${this.config.REDIS_PREFIX}:bull`;
      this.queues = Object.values(QUEUES).map((name) => new Queue(name, { connection: this.connection!, prefix }));
    }
    return this.queues;
  }

  async onModuleDestroy(): Promise<void> {
    await Promise.all((this.queues ?? []).map((q) => q.close().catch(() => undefined)));
    await this.connection?.quit().catch(() => this.connection?.disconnect());
  }
}
