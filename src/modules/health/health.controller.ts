import { Controller, Get, Inject, Res } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import Redis from 'ioredis';
import { RawResponse } from '../../common/envelope/envelope-kind';
import { Public } from '../../common/http/public.decorator';
import { ApiContract } from '../../common/swagger/api-contract';
import { REDIS } from '../../redis/redis.module';
import { ChainHealth, ChainHealthService } from '../chains';
import { ChainWalletsView, RelayerWalletsService } from '../relayer-wallets';
import { NotRateLimited } from '../rate-limit';
import { DatabaseProbe } from './database-probe.store';

class ProbeDto {
  @ApiProperty() ok: boolean;
  @ApiProperty({ example: 2 }) latencyMs: number;
  @ApiPropertyOptional({ example: 'timed out' }) error?: string;
}
type Probe = ProbeDto;

class RelayerKeyDto {
  @ApiProperty({ example: 'us-east' }) region: string;
  @ApiProperty({ example: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8' }) address: string;
  @ApiProperty({ type: String, nullable: true, description: 'wei (integer string); null until first read', example: '9999871234000000000' }) balanceWei: string | null;
  @ApiProperty({ enum: ['ok', 'low', 'empty', 'unknown'], description: 'ok: at or above the floor; low: under it (no new work, topped up); empty: under a tenth of it; unknown: not read yet' })
  state: 'ok' | 'low' | 'empty' | 'unknown';
  @ApiProperty({ type: String, nullable: true, format: 'date-time' }) checkedAt: string | null;
}

class TreasuryDto {
  @ApiProperty() address: string;
  @ApiProperty({ type: String, nullable: true, description: 'wei (integer string)' }) balanceWei: string | null;
}

class RelayerWalletsDto {
  @ApiProperty({ description: 'balance floor of each key (wei)', example: '10000000000000000' }) floorWei: string;
  @ApiProperty({ description: 'balance a treasury top-up brings a key to (wei)', example: '50000000000000000' }) targetWei: string;
  @ApiProperty({ type: TreasuryDto, nullable: true, description: 'null when no treasury is configured' }) treasury: TreasuryDto | null;
  @ApiProperty({ type: [RelayerKeyDto] }) keys: RelayerKeyDto[];
}

class ChainHealthDto {
  @ApiProperty({ example: 31337 }) chainId: number;
  @ApiProperty() healthy: boolean;
  @ApiProperty({ type: Number, nullable: true, example: 42 }) blockNumber: number | null;
  @ApiProperty({ type: Number, nullable: true, example: 3 }) latencyMs: number | null;
  @ApiProperty({ type: String, nullable: true, example: null }) error: string | null;
  @ApiProperty({ type: String, nullable: true, format: 'date-time' }) checkedAt: string | null;
  @ApiPropertyOptional({ type: RelayerWalletsDto, description: 'relayer keys of the chain (EVM chains only)' }) relayers?: RelayerWalletsDto;
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
    private readonly wallets: RelayerWalletsService,
  ) {}

  @Public()
  @NotRateLimited('orchestrator and load-balancer probe: a ping of the database and Redis and cached chain state, nothing on RPC or DNS; a limit would fail the probe of every instance behind one address')
  @RawResponse()
  @Get()
  @ApiContract({
    summary: 'Database, Redis, per-chain health and relayer key balances',
    description: '200 ok or degraded (a chain is down, or every relayer key of a chain is empty); 503 down (database or Redis), with the same body.',
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
    const wallets = new Map<number, ChainWalletsView>(this.wallets.snapshot().map((w) => [w.chainId, w]));
    const chains: ChainHealthDto[] = this.chains.snapshot().map((c: ChainHealth) => {
      const w = wallets.get(c.chainId);
      return w ? { ...c, relayers: { floorWei: w.floorWei, targetWei: w.targetWei, treasury: w.treasury, keys: w.keys } } : c;
    });
    const drained = [...wallets.values()].some((w) => w.keys.length > 0 && w.keys.every((k) => k.state === 'empty'));
    const core = database.ok && redis.ok;
    const status = !core ? 'down' : chains.every((c) => c.healthy) && !drained ? 'ok' : 'degraded';
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
