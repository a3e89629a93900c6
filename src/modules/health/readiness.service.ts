import { Inject, Injectable } from '@nestjs/common';
import Redis from 'ioredis';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { REDIS } from '../../redis/redis.module';
import { ChainHealthService } from '../chains';
import { DatabaseProbe } from './database-probe.store';
import { probe } from './health-report.service';

export interface ReadinessBody {
  status: 'ready' | 'not_ready';
  checks: { database: { ok: boolean }; redis: { ok: boolean }; chains: { chainId: number; ready: boolean }[] };
  timestamp: string;
}

export interface LivenessBody {
  status: 'alive';
  uptimeSeconds: number;
  /** p99 of the event loop's delay over the last minute (ms): a loop that stalls shows here before it stops answering. */
  eventLoopDelayMsP99: number;
}

/**
 * `/readyz` and `/livez`, in every role. Ready: PostgreSQL and Redis answer a ping (2 s each) and,
 * when chains are configured, at least one chain has a healthy provider; a single chain down
 * leaves the process ready (every instance shares the providers: taking all of them out of
 * rotation would serve no chain at all). Alive: the process answers; nothing external.
 */
@Injectable()
export class Readiness {
  private readonly loop = monitorEventLoopDelay({ resolution: 20 });
  private loopResetAt = Date.now();

  constructor(
    private readonly database: DatabaseProbe,
    @Inject(REDIS) private readonly redis: Redis,
    private readonly chains: ChainHealthService,
  ) {
    this.loop.enable();
  }

  async ready(): Promise<ReadinessBody> {
    const [database, redis] = await Promise.all([probe(() => this.database.ping()), probe(() => this.redis.ping())]);
    const chains = this.chains.snapshot().map((c) => ({ chainId: c.chainId, ready: c.healthy }));
    const ok = database.ok && redis.ok && (chains.length === 0 || chains.some((c) => c.ready));
    return { status: ok ? 'ready' : 'not_ready', checks: { database: { ok: database.ok }, redis: { ok: redis.ok }, chains }, timestamp: new Date().toISOString() };
  }

  alive(): LivenessBody {
    const p99 = this.loop.percentile(99) / 1e6;
    if (Date.now() - this.loopResetAt > 60_000) {
      this.loop.reset();
      this.loopResetAt = Date.now();
    }
    return { status: 'alive', uptimeSeconds: Math.round(process.uptime()), eventLoopDelayMsP99: Math.round(p99 * 10) / 10 };
  }

  onModuleDestroy(): void {
    this.loop.disable();
  }
}
