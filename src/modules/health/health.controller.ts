import { Controller, Get, Inject, Res } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import Redis from 'ioredis';
import { RawResponse } from '../../common/envelope/envelope-kind';
import { Public } from '../../common/http/public.decorator';
import { REDIS } from '../../redis/redis.module';
import { ChainHealth, ChainHealthService } from '../chains';
import { DatabaseProbe } from './database-probe.store';

interface Probe {
  ok: boolean;
  latencyMs: number;
  error?: string;
}

/**
 * 200 when the database and Redis answer (status ok, or degraded when a chain is down,
 * since the other chains still work); 503 when the database or Redis does not.
 */
@ApiTags('operations')
@Controller('health')
export class HealthController {
  constructor(
    private readonly database: DatabaseProbe,
    @Inject(REDIS) private readonly redis: Redis,
    private readonly chains: ChainHealthService,
  ) {}

  @Public()
  @RawResponse()
  @Get()
  @ApiOperation({ summary: 'Database, Redis and per-chain health' })
  async health(@Res({ passthrough: true }) res: Response) {
    const [database, redis] = await Promise.all([
      probe(() => this.database.ping()),
      probe(() => this.redis.ping()),
    ]);
    const chains: ChainHealth[] = this.chains.snapshot();
    const core = database.ok && redis.ok;
    const status = !core ? 'down' : chains.every((c) => c.healthy) ? 'ok' : 'degraded';
    res.status(core ? 200 : 503);
    return { status, checks: { database, redis, chains }, timestamp: new Date().toISOString() };
  }
}

async function probe(fn: () => Promise<unknown>, timeoutMs = 2000): Promise<Probe> {
  const started = Date.now();
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([fn(), new Promise((_, reject) => (timer = setTimeout(() => reject(new Error('timed out')), timeoutMs)))]);
    return { ok: true, latencyMs: Date.now() - started };
  } catch (err) {
    return { ok: false, latencyMs: Date.now() - started, error: (err as Error).message };
  } finally {
    clearTimeout(timer);
  }
}
