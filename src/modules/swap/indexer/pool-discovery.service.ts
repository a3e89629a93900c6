import { Injectable, Logger } from '@nestjs/common';
import type { ChainDefinition } from '../../chains';
import type { TokenInfo } from '../domain/types';
import { bitmapWord, type ChainReader, type DiscoveryLog, type PoolEvent } from './chain-reader';
import { DEFAULT_GET_LOGS_MAX_RANGE, readInRanges } from './log-ranges';
import { DexCursorStore } from './store/dex-cursor.store';
import { type DiscoveredPool, SwapPoolStore } from './store/swap-pool.store';
import { SwapTokenStore } from './store/swap-token.store';

type Creation = Extract<PoolEvent, { kind: 'created' }> & { block?: number };
/** A V3 position's range (Mint), from discovery logs or the per-block pool events. */
type Mint = { kind: 'mint'; pool: string; tickLower: number; tickUpper: number };
type DiscoveryDex = NonNullable<ChainDefinition['dexes']>[number] & { fromBlock: number };

/**
 * Pools of the DEXes that give `fromBlock`, found in their factories' creation events and kept
 * in PostgreSQL with their tokens' metadata and, per DEX, the last block indexed: a start reads
 * only the blocks since then, split to the chain's `getLogsMaxRange`.
 */
@Injectable()
export class PoolDiscovery {
  private readonly logger = new Logger(PoolDiscovery.name);
  /** Tokens whose metadata is stored, per chain (loaded once). */
  private readonly knownTokens = new Map<number, Set<string>>();
  /** Discovered V3 pools' tick spacing, per chain (loaded once): whose Mint events are kept. */
  private readonly v3Spacing = new Map<number, Map<string, number>>();

  constructor(
    private readonly pools: SwapPoolStore,
    private readonly tokens: SwapTokenStore,
    private readonly cursors: DexCursorStore,
  ) {}

  dexesOf(chain: ChainDefinition): DiscoveryDex[] {
    return (chain.dexes ?? []).filter((d): d is DiscoveryDex => d.fromBlock !== undefined);
  }

  /** Indexes creation events from each DEX's cursor (or `fromBlock`) to `head`, persisting range by range. */
  async sync(chain: ChainDefinition, reader: ChainReader, head: number): Promise<void> {
    const dexes = this.dexesOf(chain);
    if (dexes.length === 0) return;
    const starts = await Promise.all(
      dexes.map(async (d) => {
        const cursor = await this.cursors.get(chain.chainId, d.key);
        if (cursor && cursor.factory === d.factory.toLowerCase()) return cursor.lastBlock + 1;
        if (cursor) {
          // Another factory under the same key: its pools belong to another deployment.
          await this.pools.transaction(async (em) => {
            await this.pools.deleteDex(chain.chainId, d.key, em);
            await this.cursors.delete(chain.chainId, d.key, em);
          });
        }
        return d.fromBlock;
      }),
    );
    const from = Math.min(...starts);
    if (from > head) return;
    const factories = dexes.map((d) => d.factory.toLowerCase());
    let found = 0;
    await readInRanges(
      from,
      head,
      chain.getLogsMaxRange ?? DEFAULT_GET_LOGS_MAX_RANGE,
      (a, b) => reader.discoveryLogs(a, b, factories),
      async (logs: DiscoveryLog[], to) => {
        const created = logs.filter((l): l is Extract<DiscoveryLog, { kind: 'created' }> => l.kind === 'created');
        found += created.length;
        await this.record(chain, reader, created, to, logs.filter((l): l is Extract<DiscoveryLog, { kind: 'mint' }> => l.kind === 'mint'));
      },
    );
    this.logger.log(`chain ${chain.chainId}: blocks ${from}..${head} indexed, ${found} pools created there`);
  }

  /**
   * Created pools of discovery DEXes (their new tokens' metadata read first), the bitmap words of
   * their V3 positions (`mints`, in chain order after the creations of the same range) and every
   * discovery DEX's cursor moved to `to`, in one transaction. Returns the pools and tokens added.
   */
  async record(chain: ChainDefinition, reader: ChainReader, events: Creation[], to: number, mints: Mint[] = []): Promise<{ pools: DiscoveredPool[]; tokens: TokenInfo[] }> {
    const dexes = this.dexesOf(chain);
    if (dexes.length === 0) return { pools: [], tokens: [] };
    const byFactory = new Map(dexes.map((d) => [d.factory.toLowerCase(), d]));
    const pools = events.flatMap((e): DiscoveredPool[] => {
      const dex = byFactory.get(e.factory);
      return dex ? [{ address: e.pair, dexKey: dex.key, token0: e.token0, token1: e.token1, fee: e.fee ?? null, tickSpacing: e.tickSpacing ?? null, tickWords: [], createdBlock: e.block ?? to }] : [];
    });
    const spacing = await this.v3Pools(chain.chainId);
    for (const p of pools) if (p.tickSpacing !== null) spacing.set(p.address, p.tickSpacing);
    const words = mints.flatMap((m) => {
      const s = spacing.get(m.pool);
      return s ? [{ address: m.pool, word: bitmapWord(m.tickLower, s) }, { address: m.pool, word: bitmapWord(m.tickUpper, s) }] : [];
    });
    const known = await this.known(chain.chainId);
    const unknown = [...new Set(pools.flatMap((p) => [p.token0, p.token1]))].filter((t) => !known.has(t));
    const metadata = unknown.length > 0 ? await reader.tokenMetadataMany(unknown) : [];
    const tokens = unknown.flatMap((address, i): TokenInfo[] => {
      const meta = metadata[i];
      return meta ? [{ chainId: chain.chainId, address, ...meta, logoUrl: '' }] : [];
    });
    await this.pools.transaction(async (em) => {
      await this.tokens.insert(chain.chainId, tokens, em);
      await this.pools.insert(chain.chainId, pools, em);
      await this.pools.addTickWords(chain.chainId, words, em);
      await this.cursors.advance(chain.chainId, dexes.map((d) => ({ dexKey: d.key, factory: d.factory.toLowerCase(), lastBlock: to })), em);
    });
    for (const t of tokens) known.add(t.address);
    return { pools, tokens };
  }

  /**
   * The bitmap words of a V3 pool read in full (created since the last poll: its first Mint
   * events came before the log filter knew it), so a start from PostgreSQL reads the same ticks.
   */
  async recordTicks(chainId: number, pool: { address: string; tickSpacing: number; ticks: Array<{ index: number }> }): Promise<void> {
    (await this.v3Pools(chainId)).set(pool.address, pool.tickSpacing);
    const words = [...new Set(pool.ticks.map((t) => bitmapWord(t.index, pool.tickSpacing)))];
    await this.pools.addTickWords(chainId, words.map((word) => ({ address: pool.address, word })));
  }

  /** What is stored for the chain's discovery DEXes. */
  async stored(chain: ChainDefinition): Promise<{ pools: DiscoveredPool[]; tokens: TokenInfo[] }> {
    const keys = this.dexesOf(chain).map((d) => d.key);
    if (keys.length === 0) return { pools: [], tokens: [] };
    const [pools, tokens] = await Promise.all([this.pools.list(chain.chainId, keys), this.tokens.list(chain.chainId)]);
    return { pools, tokens };
  }

  private async v3Pools(chainId: number): Promise<Map<string, number>> {
    let map = this.v3Spacing.get(chainId);
    if (!map) {
      map = new Map();
      for (const p of await this.pools.list(chainId, await this.cursors.keys(chainId))) if (p.tickSpacing !== null) map.set(p.address, p.tickSpacing);
      this.v3Spacing.set(chainId, map);
    }
    return map;
  }

  private async known(chainId: number): Promise<Set<string>> {
    let set = this.knownTokens.get(chainId);
    if (!set) {
      set = new Set((await this.tokens.list(chainId)).map((t) => t.address));
      this.knownTokens.set(chainId, set);
    }
    return set;
  }
}
