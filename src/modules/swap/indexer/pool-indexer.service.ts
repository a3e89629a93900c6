import { createHash } from 'node:crypto';
import { Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { AppConfig } from '../../../config/app-config';
import { ChainDefinition } from '../../chains';
import { ChainRegistry } from '../../chains';
import { PricingService } from '../../pricing';
import type { DexProvider, PoolState, TokenInfo, V3PoolState } from '../domain/types';
import { type ChainMarket, reindex } from './chain-market';
import { ChainReader, V3_FEE_TIERS } from './chain-reader';
import { v3Pool, withPosition, withPrice } from '../domain/v3-state';
import { PoolDiscovery } from './pool-discovery.service';
import { PoolSnapshotStore } from './pool-snapshot.store';
import { ProviderCallError } from '../../../common/evm/provider-error';

/** A getLogs range larger than this is not worth it: re-read everything instead. */
const MAX_LOG_RANGE = 2_000;
/** V3 pools whose state (slot0, liquidity, ticks) is read at once when a chain loads. */
const V3_READ_CONCURRENCY = 8;
/** After a failed load, requests fail fast (CHAIN_003) for this long before one tries again. */
const RETRY_LOAD_AFTER_MS = 5_000;

interface Follower {
  ready: Promise<ChainMarket>;
  market?: ChainMarket;
  timer?: NodeJS.Timeout;
  failedAt?: number;
}

/**
 * Keeps every swap chain's catalog tokens, pools and reserves in memory. At start a chain is
 * read from the Redis copy (or, without one, from the factories: getPair for every catalog
 * token pair of every V2 DEX, getPool for every pair and fee tier of every V3 DEX, whose pools'
 * initialized ticks come from their tick bitmaps); afterwards each new block's pool events (V2
 * Sync; V3 Initialize, Swap, Mint, Burn) and factory events (PairCreated, PoolCreated) are
 * applied with one eth_getLogs, the gas price is refreshed, and the Redis copy rewritten. Quotes read
 * only the in-memory state.
 */
@Injectable()
export class PoolIndexer implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger(PoolIndexer.name);
  private readonly followers = new Map<number, Follower>();
  private readonly configHashes = new Map<number, string>();
  private stopped = false;

  constructor(
    private readonly registry: ChainRegistry,
    private readonly config: AppConfig,
    private readonly snapshots: PoolSnapshotStore,
    private readonly pricing: PricingService,
    private readonly discovery: PoolDiscovery,
  ) {}

  onApplicationBootstrap(): void {
    // Worker processes serve no quotes; API instances warm up in the background.
    if (this.config.APP_ROLE === 'worker') return;
    for (const chain of this.swapChains()) void this.market(chain.chainId).catch(() => undefined);
  }

  onModuleDestroy(): void {
    this.stopped = true;
    for (const follower of this.followers.values()) clearTimeout(follower.timer);
  }

  /** EVM chains with an RPC: the ones whose tokens and pools the swap module knows. */
  swapChains(): ChainDefinition[] {
    return this.registry.all().filter((c) => c.enabled && c.rpcUrl && !c.capabilities.exchangeAction);
  }

  /** The chain's market once loaded (the first call starts loading it). */
  market(chainId: number): Promise<ChainMarket> {
    let follower = this.followers.get(chainId);
    if (!follower || (follower.failedAt !== undefined && Date.now() - follower.failedAt > RETRY_LOAD_AFTER_MS)) {
      const chain = this.registry.get(chainId);
      const created: Follower = {
        ready: this.load(chain).catch((err: Error) => {
          throw new ProviderCallError(`swap pools of chain ${chainId} could not be read`, err);
        }),
      };
      follower = created;
      this.followers.set(chainId, created);
      created.ready.then(
        (market) => {
          created.market = market;
          this.schedule(chain, created);
        },
        (err: Error) => {
          // Remembered for a while, so a chain that is down costs requests no RPC timeout each.
          created.failedAt = Date.now();
          this.logger.warn(err.message);
        },
      );
    }
    return follower.ready;
  }

  /** Synchronous view for callers that must not wait (null until loaded). */
  peek(chainId: number): ChainMarket | null {
    return this.followers.get(chainId)?.market ?? null;
  }

  private providersOf(chain: ChainDefinition): DexProvider[] {
    return (chain.dexes ?? []).map((d) => ({ key: d.key, name: d.name, type: d.type, factory: d.factory.toLowerCase(), feeBps: d.feeBps }));
  }

  /** Identifies the configuration a Redis copy was made for; the chains file is read once, so once per chain. */
  private configHash(chain: ChainDefinition): string {
    let hash = this.configHashes.get(chain.chainId);
    if (!hash) {
      hash = createHash('sha256')
        .update(JSON.stringify({ rpc: chain.rpcUrl, dexes: chain.dexes ?? [], tokens: (chain.tokens ?? []).map((t) => t.address.toLowerCase()) }))
        .digest('hex');
      this.configHashes.set(chain.chainId, hash);
    }
    return hash;
  }

  private async load(chain: ChainDefinition): Promise<ChainMarket> {
    const reader = new ChainReader(this.registry.provider(chain.chainId));
    const providers = this.providersOf(chain);
    const wrappedNative = chain.contracts?.weth?.toLowerCase() ?? null;
    const head = await reader.blockNumber();
    const stored = await this.snapshots.load(chain.chainId, this.configHash(chain), providers);
    // A copy ahead of the chain belongs to an earlier chain (a restarted devnet): ignore it.
    if (stored && stored.block <= head && head - stored.block <= MAX_LOG_RANGE) {
      const market = reindex({ chainId: chain.chainId, wrappedNative, providers, ...stored });
      return this.catchUp(chain, reader, market);
    }
    const market = await this.loadFresh(chain, reader, head);
    this.logger.log(`chain ${chain.chainId}: ${market.tokens.size} tokens, ${market.pools.size} pools across ${providers.length} DEXes`);
    void this.snapshots.save(market, this.configHash(chain));
    this.warmPrice(chain.chainId);
    return market;
  }

  /**
   * The chain read at `head`: DEXes with `fromBlock` from their creation events (indexed from
   * where PostgreSQL says the last start stopped) and their stored pools' state; the others by
   * looking up every catalog token pair.
   */
  private async loadFresh(chain: ChainDefinition, reader: ChainReader, head: number): Promise<ChainMarket> {
    const providers = this.providersOf(chain);
    const discovering = new Set(this.discovery.dexesOf(chain).map((d) => d.key));
    await this.discovery.sync(chain, reader, head);
    const [tokens, gasPrice, stored] = await Promise.all([this.readTokens(chain, reader), reader.gasPrice(), this.discovery.stored(chain)]);
    const catalog = [...tokens.keys()];
    // Configured metadata wins over what discovery read for the same address.
    for (const t of stored.tokens) if (!tokens.has(t.address)) tokens.set(t.address, t);
    const pools = await this.discoverPools(reader, providers.filter((p) => !discovering.has(p.key)), catalog, chain);
    const found = stored.pools.filter((p) => tokens.has(p.token0) && tokens.has(p.token1));
    for (const pool of await this.readPools(reader, chain, providers, found)) pools.set(pool.address, pool);
    return reindex({ chainId: chain.chainId, wrappedNative: chain.contracts?.weth?.toLowerCase() ?? null, providers, tokens, pools, gasPrice, block: head });
  }

  /** The current state of known pools: V2 reserves in JSON-RPC batches, V3 pools a few at a time. */
  private async readPools(
    reader: ChainReader,
    chain: ChainDefinition,
    providers: DexProvider[],
    found: Array<{ address: string; dexKey: string; token0: string; token1: string; fee: number | null; tickSpacing: number | null; tickWords: number[] }>,
  ): Promise<PoolState[]> {
    const byKey = new Map(providers.map((p) => [p.key, p]));
    const v2 = found.filter((p) => byKey.get(p.dexKey)?.type === 'uniswap-v2');
    const v3 = found.filter((p) => byKey.get(p.dexKey)?.type === 'uniswap-v3' && p.fee !== null);
    const reserves = await reader.reservesMany(v2.map((p) => p.address));
    const out: PoolState[] = v2.map((p, i) => ({ kind: 'v2', address: p.address, provider: byKey.get(p.dexKey) as DexProvider, token0: p.token0, token1: p.token1, reserve0: reserves[i][0], reserve1: reserves[i][1] }));
    for (let i = 0; i < v3.length; i += V3_READ_CONCURRENCY) {
      const states = await Promise.all(
        v3.slice(i, i + V3_READ_CONCURRENCY).map(async (p) => {
          const base = { address: p.address, provider: byKey.get(p.dexKey) as DexProvider, token0: p.token0, token1: p.token1, fee: p.fee as number };
          const lens = chain.contracts?.tickLens;
          // Discovery knows the words its positions touched: TickLens for those, no bitmap scan.
          if (lens && p.tickSpacing !== null) return v3Pool(base, await reader.v3StateInWords(p.address, lens, p.tickWords));
          return this.readV3Pool(reader, chain, base);
        }),
      );
      // A pool not initialized yet has no price and zero reserves: its Initialize event brings them.
      out.push(...states);
    }
    return out;
  }

  /** Configured tokens with their on-chain name, symbol and decimals (the chain wins; config fills in when a read fails). */
  private async readTokens(chain: ChainDefinition, reader: ChainReader): Promise<Map<string, TokenInfo>> {
    const tokens = await Promise.all(
      (chain.tokens ?? []).map(async (t): Promise<TokenInfo> => {
        const address = t.address.toLowerCase();
        const base = { chainId: chain.chainId, address, symbol: t.symbol, name: t.name, decimals: t.decimals, logoUrl: t.logoUrl ?? '' };
        try {
          const meta = await reader.tokenMetadata(address);
          if (meta.decimals !== t.decimals) this.logger.warn(`chain ${chain.chainId} token ${t.symbol}: configured decimals ${t.decimals}, chain says ${meta.decimals}`);
          return { ...base, ...meta };
        } catch (err) {
          this.logger.warn(`chain ${chain.chainId} token ${t.symbol}: metadata read failed (${(err as Error).message.split('\n')[0]}); using the configured values`);
          return base;
        }
      }),
    );
    return new Map(tokens.map((t) => [t.address, t]));
  }

  private async discoverPools(reader: ChainReader, providers: DexProvider[], tokens: string[], chain?: ChainDefinition): Promise<Map<string, PoolState>> {
    const lookups: Array<Promise<PoolState | null>> = [];
    for (const provider of providers) {
      for (let i = 0; i < tokens.length; i++) {
        for (let j = i + 1; j < tokens.length; j++) {
          const [token0, token1] = tokens[i] < tokens[j] ? [tokens[i], tokens[j]] : [tokens[j], tokens[i]];
          if (provider.type === 'uniswap-v3') {
            for (const fee of V3_FEE_TIERS) {
              lookups.push(reader.getV3Pool(provider.factory, token0, token1, fee).then((address) => (address ? this.readV3Pool(reader, chain, { address, provider, token0, token1, fee }) : null)));
            }
            continue;
          }
          lookups.push(
            reader.getPair(provider.factory, token0, token1).then(async (address) => {
              if (!address) return null;
              const [reserve0, reserve1] = await reader.getReserves(address);
              return { kind: 'v2' as const, address, provider, token0, token1, reserve0, reserve1 };
            }),
          );
        }
      }
    }
    const pools = (await Promise.all(lookups)).filter((p): p is PoolState => p !== null);
    return new Map(pools.map((p) => [p.address, p]));
  }

  /** Ticks through the chain's TickLens (`contracts.tickLens`) when it has one. */
  private async readV3Pool(reader: ChainReader, chain: ChainDefinition | undefined, base: { address: string; provider: DexProvider; token0: string; token1: string; fee: number }): Promise<V3PoolState> {
    return v3Pool(base, await reader.v3State(base.address, chain?.contracts?.tickLens));
  }

  private schedule(chain: ChainDefinition, follower: Follower): void {
    if (this.stopped) return;
    follower.timer = setTimeout(() => {
      const current = follower.market;
      if (!current || this.stopped) return;
      const reader = new ChainReader(this.registry.provider(chain.chainId));
      this.catchUp(chain, reader, current)
        .then((market) => {
          follower.market = market;
          follower.ready = Promise.resolve(market);
        })
        .catch((err: Error) => this.logger.warn(`chain ${chain.chainId} pool refresh failed: ${err.message.split('\n')[0]}`))
        .finally(() => this.schedule(chain, follower));
    }, this.config.SWAP_POOL_REFRESH_MS);
    follower.timer.unref();
  }

  /** Applies pool events from market.block+1 to the head; returns the same market when nothing happened. */
  private async catchUp(chain: ChainDefinition, reader: ChainReader, market: ChainMarket): Promise<ChainMarket> {
    const head = await reader.blockNumber();
    this.warmPrice(chain.chainId);
    if (head <= market.block) return market;
    if (head - market.block > MAX_LOG_RANGE) return this.publish(chain, await this.loadFresh(chain, reader, head));
    const addresses = [...market.pools.keys(), ...market.providers.map((p) => p.factory)];
    const [events, gasPrice] = await Promise.all([reader.poolEvents(market.block + 1, head, addresses), reader.gasPrice()]);
    const discovering = new Set(this.discovery.dexesOf(chain).map((d) => d.factory.toLowerCase()));
    // Pools of discovery DEXes are recorded (whatever their tokens) and the DEXes' cursors move to the head.
    const mints = events.flatMap((e) => (e.kind === 'v3-position' && e.liquidityDelta > 0n ? [{ kind: 'mint' as const, pool: e.address, tickLower: e.tickLower, tickUpper: e.tickUpper }] : []));
    const recorded = discovering.size > 0 ? await this.discovery.record(chain, reader, events.filter((e) => e.kind === 'created'), head, mints) : { pools: [], tokens: [] };
    // Nothing traded: the graph and prices stand; only the gas price may have moved.
    if (events.length === 0) return { ...market, gasPrice, block: head };
    const tokens = recorded.tokens.length > 0 ? new Map(market.tokens) : market.tokens;
    for (const t of recorded.tokens) if (!tokens.has(t.address)) tokens.set(t.address, t);
    const pools = new Map(market.pools);
    const created: Array<{ address: string; provider: DexProvider; token0: string; token1: string; fee?: number }> = [];
    for (const event of events) {
      if (event.kind === 'created') {
        const provider = market.providers.find((p) => p.factory === event.factory);
        if (provider && tokens.has(event.token0) && tokens.has(event.token1) && !pools.has(event.pair)) {
          created.push({ address: event.pair, provider, token0: event.token0, token1: event.token1, fee: event.fee });
        }
        continue;
      }
      const pool = pools.get(event.address);
      if (!pool) continue;
      if (event.kind === 'sync' && pool.kind === 'v2') pools.set(pool.address, { ...pool, reserve0: event.reserve0, reserve1: event.reserve1 });
      else if (event.kind === 'v3-price' && pool.kind === 'v3') pools.set(pool.address, withPrice(pool, event.sqrtPriceX96, event.tick, event.liquidity));
      else if (event.kind === 'v3-position' && pool.kind === 'v3') pools.set(pool.address, withPosition(pool, event.tickLower, event.tickUpper, event.liquidityDelta));
    }
    // A new pool's first events came from an address the log filter did not know yet: read its
    // state directly (later events arrive with the next blocks' logs).
    for (const pool of created) {
      if (pool.provider.type === 'uniswap-v3' && pool.fee !== undefined) {
        const v3 = await this.readV3Pool(reader, chain, { ...pool, fee: pool.fee });
        pools.set(pool.address, v3);
        if (discovering.has(pool.provider.factory)) await this.discovery.recordTicks(chain.chainId, v3);
      } else {
        const [reserve0, reserve1] = await reader.getReserves(pool.address);
        pools.set(pool.address, { kind: 'v2', ...pool, reserve0, reserve1 });
      }
    }
    return this.publish(chain, reindex({ ...market, tokens, pools, gasPrice, block: head }));
  }

  private publish(chain: ChainDefinition, market: ChainMarket): ChainMarket {
    void this.snapshots.save(market, this.configHash(chain));
    return market;
  }

  /** Keeps PricingService's cache warm so quotes never wait on its RPC read. */
  private warmPrice(chainId: number): void {
    void this.pricing.nativeUsd(chainId).catch(() => undefined);
  }
}
