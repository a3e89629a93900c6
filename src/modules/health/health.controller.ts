import { Controller, Get, Inject, Res } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import Redis from 'ioredis';
import { RawResponse } from '../../common/envelope/envelope-kind';
import { Public } from '../../common/http/public.decorator';
import { ApiContract } from '../../common/swagger/api-contract';
import { REDIS } from '../../redis/redis.module';
import { ChainHealth, ChainHealthService } from '../chains';
import { DatabaseProbe } from './database-probe.store';

class ProbeDto {
  @ApiProperty() ok: boolean;
  @ApiProperty({ example: 2 }) latencyMs: number;
  @ApiPropertyOptional({ example: 'timed out' }) error?: string;
}
type Probe = ProbeDto;

class ChainHealthDto {
  @ApiProperty({ example: 31337 }) chainId: number;
  @ApiProperty() healthy: boolean;
  @ApiProperty({ type: Number, nullable: true, example: 42 }) blockNumber: number | null;
  @ApiProperty({ type: Number, nullable: true, example: 3 }) latencyMs: number | null;
  @ApiProperty({ type: String, nullable: true, example: null }) error: string | null;
  @ApiProperty({ type: String, nullable: true, format: 'date-time' }) checkedAt: string | null;
}

class HealthChecksDto {
  @ApiProperty({ type: ProbeDto }) database: ProbeDto;
  @ApiProperty({ type: ProbeDto }) redis: ProbeDto;
  @ApiProperty({ type: [ChainHealthDto] }) chains: ChainHealthDto[];
}

class HealthDto {
  @ApiProperty({ enum: ['ok', 'degraded', 'down'] }) status: 'ok' | 'degraded' | 'down';
  @ApiProperty({ type: HealthChecksDto }) checks: HealthChecksDto;
  @ApiProperty({ format: 'date-time' }) timestamp: string;
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
  @ApiContract({
    summary: 'Database, Redis and per-chain health',
    description: '200 ok or degraded (a chain is down); 503 down (database or Redis), with the same body.',
    auth: 'public',
    envelope: 'bare',
    type: HealthDto,
    alsoStatus: { status: 503, description: 'down: the database or Redis does not answer (same body)' },
    noInput: true,
  })
  async health(@Res({ passthrough: true }) res: Response): Promise<HealthDto> {
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
