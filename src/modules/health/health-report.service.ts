import { Inject, Injectable } from '@nestjs/common';
import Redis from 'ioredis';
import { scrubProviderUrls, redactUrls } from '../../common/evm/provider-url';
import { REDIS } from '../../redis/redis.module';
import { ChainHealth, ChainHealthService } from '../chains';
import { ChainWalletsView, RelayerWalletsService } from '../relayer-wallets';
import { DatabaseProbe } from './database-probe.store';
import { ChainHealthDto, HealthDetailDto, HealthDto, ProbeDto } from './health.dto';

/**
 * One health reading. Status: down when the database or Redis does not answer; degraded when a
 * chain is down or every relayer key of a chain is empty (the other chains still work); else ok.
 */
@Injectable()
export class HealthReport {
  constructor(
    private readonly database: DatabaseProbe,
    @Inject(REDIS) private readonly redis: Redis,
    private readonly chains: ChainHealthService,
    private readonly wallets: RelayerWalletsService,
  ) {}

  /** Everything an operator sees: latencies, probe errors, relayer and treasury balances. */
  async detail(): Promise<HealthDetailDto> {
    const [database, redis] = await Promise.all([probe(() => this.database.ping()), probe(() => this.redis.ping())]);
    const wallets = new Map<number, ChainWalletsView>(this.wallets.snapshot().map((w) => [w.chainId, w]));
    const chains: ChainHealthDto[] = this.chains.snapshot().map((c: ChainHealth) => {
      const w = wallets.get(c.chainId);
      return w ? { ...c, relayers: { floorWei: w.floorWei, targetWei: w.targetWei, treasury: w.treasury, keys: w.keys } } : c;
    });
    const drained = [...wallets.values()].some((w) => w.keys.length > 0 && w.keys.every((k) => k.state === 'empty'));
    const core = database.ok && redis.ok;
    const status = !core ? 'down' : chains.every((c) => c.healthy) && !drained ? 'ok' : 'degraded';
    return { status, checks: { database, redis, chains }, timestamp: new Date().toISOString() };
  }

  /** What anyone may see: the status, each component's ok and each chain's providers (redacted URLs); no key, balance, address or error text. */
  async summary(): Promise<HealthDto> {
    const { status, checks, timestamp } = await this.detail();
    return {
      status,
      checks: {
        database: { ok: checks.database.ok },
        redis: { ok: checks.redis.ok },
        // Providers by redacted URL only (extensions.md): a host, never a path, query or key.
        chains: checks.chains.map((c) => ({ chainId: c.chainId, healthy: c.healthy, providers: c.providers })),
      },
      timestamp,
    };
  }
}

export async function probe(fn: () => Promise<unknown>, timeoutMs = 2000): Promise<ProbeDto> {
  const started = Date.now();
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([fn(), new Promise((_, reject) => (timer = setTimeout(() => reject(new Error('timed out')), timeoutMs)))]);
    return { ok: true, latencyMs: Date.now() - started };
  } catch (err) {
    // A driver's message can quote its connection URL (with a password).
    return { ok: false, latencyMs: Date.now() - started, error: redactUrls(scrubProviderUrls(String((err as Error)?.message ?? err).split('\n')[0])).slice(0, 200) };
  } finally {
    clearTimeout(timer);
  }
}
