import { Inject, Injectable, Logger } from '@nestjs/common';
import Redis from 'ioredis';
import { REDIS } from '../../../redis/redis.module';
import type { DexProvider, PoolState, TokenInfo } from '../domain/types';
import type { ChainMarket } from './chain-market';
import { v3Pool } from '../domain/v3-state';

interface Snapshot {
  configHash: string;
  block: number;
  gasPrice: string;
  tokens: TokenInfo[];
  pools: Array<{
    address: string;
    provider: string;
    token0: string;
    token1: string;
    reserve0: string;
    reserve1: string;
    /** V3 only. */
    v3?: { fee: number; tickSpacing: number; sqrtPriceX96: string; tick: number; liquidity: string; ticks: Array<[index: number, net: string, gross: string]> };
  }>;
}

const key = (chainId: number): string => `swap:pools:${chainId}`;
/** Long enough to survive restarts, short enough that an abandoned chain's copy goes away. */
const SNAPSHOT_TTL_SECONDS = 24 * 3600;

/**
 * The Redis copy of a chain's pools: a starting instance (or a second API instance) is ready
 * from it at once and only catches up on events since its block.
 */
@Injectable()
export class PoolSnapshotStore {
  private readonly logger = new Logger(PoolSnapshotStore.name);

  constructor(@Inject(REDIS) private readonly redis: Redis) {}

  async save(market: ChainMarket, configHash: string): Promise<void> {
    const snapshot: Snapshot = {
      configHash,
      block: market.block,
      gasPrice: market.gasPrice.toString(),
      tokens: [...market.tokens.values()],
      pools: [...market.pools.values()].map((p) => ({
        address: p.address,
        provider: p.provider.key,
        token0: p.token0,
        token1: p.token1,
        reserve0: p.reserve0.toString(),
        reserve1: p.reserve1.toString(),
        ...(p.kind === 'v3'
          ? {
              v3: {
                fee: p.fee,
                tickSpacing: p.tickSpacing,
                sqrtPriceX96: p.sqrtPriceX96.toString(),
                tick: p.tick,
                liquidity: p.liquidity.toString(),
                ticks: p.ticks.map((t): [number, string, string] => [t.index, t.liquidityNet.toString(), t.liquidityGross.toString()]),
              },
            }
          : {}),
      })),
    };
    await this.redis.set(key(market.chainId), JSON.stringify(snapshot), 'EX', SNAPSHOT_TTL_SECONDS).catch((err: Error) => this.logger.warn(`pool snapshot not saved: ${err.message}`));
  }

  /** The stored pools if they were indexed under the same configuration; null otherwise. */
  async load(chainId: number, configHash: string, providers: DexProvider[]): Promise<Pick<ChainMarket, 'block' | 'gasPrice' | 'tokens' | 'pools'> | null> {
    const raw = await this.redis.get(key(chainId)).catch(() => null);
    if (!raw) return null;
    try {
      const snapshot = JSON.parse(raw) as Snapshot;
      if (snapshot.configHash !== configHash) return null;
      const byKey = new Map(providers.map((p) => [p.key, p]));
      const pools = new Map<string, PoolState>();
      for (const p of snapshot.pools) {
        const provider = byKey.get(p.provider);
        if (!provider) return null;
        const base = { address: p.address, provider, token0: p.token0, token1: p.token1 };
        if (p.v3) {
          const ticks = p.v3.ticks.map(([index, net, gross]) => ({ index, liquidityNet: BigInt(net), liquidityGross: BigInt(gross) }));
          pools.set(p.address, v3Pool({ ...base, fee: p.v3.fee }, { sqrtPriceX96: BigInt(p.v3.sqrtPriceX96), tick: p.v3.tick, liquidity: BigInt(p.v3.liquidity), tickSpacing: p.v3.tickSpacing, ticks }));
        } else {
          pools.set(p.address, { kind: 'v2', ...base, reserve0: BigInt(p.reserve0), reserve1: BigInt(p.reserve1) });
        }
      }
      return { block: snapshot.block, gasPrice: BigInt(snapshot.gasPrice), tokens: new Map(snapshot.tokens.map((t) => [t.address, t])), pools };
    } catch {
      return null;
    }
  }
}
