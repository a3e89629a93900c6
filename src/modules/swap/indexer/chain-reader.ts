import { Interface, JsonRpcProvider, ZeroAddress, id, toQuantity } from 'ethers';
import type { V3Tick } from '../domain/types';

const ERC20 = new Interface(['function name() view returns (string)', 'function symbol() view returns (string)', 'function decimals() view returns (uint8)']);
const FACTORY = new Interface(['function getPair(address,address) view returns (address)', 'event PairCreated(address indexed token0, address indexed token1, address pair, uint256)']);
const PAIR = new Interface(['function getReserves() view returns (uint112, uint112, uint32)', 'event Sync(uint112 reserve0, uint112 reserve1)']);

const V3_FACTORY = new Interface([
  'function getPool(address,address,uint24) view returns (address)',
  'event PoolCreated(address indexed token0, address indexed token1, uint24 indexed fee, int24 tickSpacing, address pool)',
]);
const V3_POOL = new Interface([
  'function slot0() view returns (uint160 sqrtPriceX96, int24 tick, uint16, uint16, uint16, uint8, bool)',
  'function liquidity() view returns (uint128)',
  'function tickSpacing() view returns (int24)',
  'function tickBitmap(int16) view returns (uint256)',
  'function ticks(int24) view returns (uint128 liquidityGross, int128 liquidityNet, uint256, uint256, int56, uint160, uint32, bool)',
  'event Initialize(uint160 sqrtPriceX96, int24 tick)',
  'event Swap(address indexed sender, address indexed recipient, int256 amount0, int256 amount1, uint160 sqrtPriceX96, uint128 liquidity, int24 tick)',
  'event Mint(address sender, address indexed owner, int24 indexed tickLower, int24 indexed tickUpper, uint128 amount, uint256 amount0, uint256 amount1)',
  'event Burn(address indexed owner, int24 indexed tickLower, int24 indexed tickUpper, uint128 amount, uint256 amount0, uint256 amount1)',
]);

/** Uniswap V3 periphery's TickLens: one call per bitmap word gives its initialized ticks. */
const TICK_LENS = new Interface([
  'function getPopulatedTicksInWord(address pool, int16 tickBitmapIndex) view returns (tuple(int24 tick, int128 liquidityNet, uint128 liquidityGross)[] populatedTicks)',
]);

export const SYNC_TOPIC = id('Sync(uint112,uint112)');
export const PAIR_CREATED_TOPIC = id('PairCreated(address,address,address,uint256)');
export const POOL_CREATED_TOPIC = V3_FACTORY.getEvent('PoolCreated')!.topicHash;
const V3_TOPICS = { initialize: V3_POOL.getEvent('Initialize')!.topicHash, swap: V3_POOL.getEvent('Swap')!.topicHash, mint: V3_POOL.getEvent('Mint')!.topicHash, burn: V3_POOL.getEvent('Burn')!.topicHash };
/** Uniswap V3 fee tiers looked up for every pair (hundredths of a basis point). */
export const V3_FEE_TIERS = [100, 500, 3000, 10000] as const;
/** eth_calls per JSON-RPC batch when scanning a V3 pool's tick bitmap. */
const BITMAP_BATCH = 1000;
const MAX_TICK = 887272;

/** Thin typed reads over one chain's RPC; everything the indexer learns from a chain goes through here. */
export class ChainReader {
  constructor(private readonly provider: JsonRpcProvider) {}

  async tokenMetadata(address: string): Promise<{ name: string; symbol: string; decimals: number }> {
    const [name, symbol, decimals] = await Promise.all(
      (['name', 'symbol', 'decimals'] as const).map(async (fn) => ERC20.decodeFunctionResult(fn, await this.provider.call({ to: address, data: ERC20.encodeFunctionData(fn) }))[0] as unknown),
    );
    return { name: String(name), symbol: String(symbol), decimals: Number(decimals) };
  }

  /** Lowercase pair address, or null when the factory has none. */
  async getPair(factory: string, tokenA: string, tokenB: string): Promise<string | null> {
    const raw = await this.provider.call({ to: factory, data: FACTORY.encodeFunctionData('getPair', [tokenA, tokenB]) });
    const pair = String(FACTORY.decodeFunctionResult('getPair', raw)[0]).toLowerCase();
    return pair === ZeroAddress ? null : pair;
  }

  async getReserves(pair: string): Promise<[bigint, bigint]> {
    const raw = await this.provider.call({ to: pair, data: PAIR.encodeFunctionData('getReserves') });
    const [r0, r1] = PAIR.decodeFunctionResult('getReserves', raw) as unknown as [bigint, bigint];
    return [r0, r1];
  }

  /** Lowercase V3 pool address, or null when the factory has none for this fee. */
  async getV3Pool(factory: string, tokenA: string, tokenB: string, fee: number): Promise<string | null> {
    const raw = await this.provider.call({ to: factory, data: V3_FACTORY.encodeFunctionData('getPool', [tokenA, tokenB, fee]) });
    const pool = String(V3_FACTORY.decodeFunctionResult('getPool', raw)[0]).toLowerCase();
    return pool === ZeroAddress ? null : pool;
  }

  /**
   * A V3 pool's swap state: price, tick, active liquidity, spacing, and every initialized tick
   * (the tick bitmap scanned over the whole tick range, in JSON-RPC batches, then ticks()).
   */
  async v3State(pool: string, tickLens?: string): Promise<{ sqrtPriceX96: bigint; tick: number; liquidity: bigint; tickSpacing: number; ticks: V3Tick[] }> {
    const read = async (fn: string, args: unknown[] = []) => V3_POOL.decodeFunctionResult(fn, await this.provider.call({ to: pool, data: V3_POOL.encodeFunctionData(fn, args) }));
    const [slot0, liquidity, spacing] = await Promise.all([read('slot0'), read('liquidity'), read('tickSpacing')]);
    const tickSpacing = Number(spacing[0]);
    const minWord = Math.floor(-MAX_TICK / tickSpacing) >> 8;
    const maxWord = Math.floor(MAX_TICK / tickSpacing) >> 8;
    const words: number[] = [];
    for (let w = minWord; w <= maxWord; w++) words.push(w);
    const bitmaps = await this.batchCalls(words.map((w) => ({ to: pool, data: V3_POOL.encodeFunctionData('tickBitmap', [w]) })));
    if (tickLens) {
      // TickLens: one call per initialized word instead of one ticks() call per initialized tick.
      const populated = words.filter((_, k) => BigInt(bitmaps[k]) !== 0n);
      const answers = await this.batchCalls(populated.map((w) => ({ to: tickLens, data: TICK_LENS.encodeFunctionData('getPopulatedTicksInWord', [pool, w]) })));
      const ticks = answers.flatMap((raw) =>
        (TICK_LENS.decodeFunctionResult('getPopulatedTicksInWord', raw)[0] as Array<[bigint, bigint, bigint]>).map((t) => ({ index: Number(t[0]), liquidityNet: BigInt(t[1]), liquidityGross: BigInt(t[2]) })),
      );
      return { sqrtPriceX96: BigInt(slot0[0] as bigint), tick: Number(slot0[1]), liquidity: BigInt(liquidity[0] as bigint), tickSpacing, ticks: ticks.sort((a, b) => a.index - b.index) };
    }
    const indexes: number[] = [];
    bitmaps.forEach((raw, k) => {
      let bits = BigInt(raw);
      for (let bit = 0; bits !== 0n; bit++, bits >>= 1n) if (bits & 1n) indexes.push(((words[k] << 8) + bit) * tickSpacing);
    });
    const infos = await this.batchCalls(indexes.map((t) => ({ to: pool, data: V3_POOL.encodeFunctionData('ticks', [t]) })));
    const ticks = indexes.map((index, k) => {
      const info = V3_POOL.decodeFunctionResult('ticks', infos[k]);
      return { index, liquidityGross: BigInt(info[0] as bigint), liquidityNet: BigInt(info[1] as bigint) };
    });
    return { sqrtPriceX96: BigInt(slot0[0] as bigint), tick: Number(slot0[1]), liquidity: BigInt(liquidity[0] as bigint), tickSpacing, ticks: ticks.sort((a, b) => a.index - b.index) };
  }

  /** Reserves of many V2 pairs in JSON-RPC batches, in order. */
  async reservesMany(pairs: string[]): Promise<Array<[bigint, bigint]>> {
    const raw = await this.batchCalls(pairs.map((to) => ({ to, data: PAIR.encodeFunctionData('getReserves') })));
    return raw.map((r) => {
      const [r0, r1] = PAIR.decodeFunctionResult('getReserves', r) as unknown as [bigint, bigint];
      return [r0, r1];
    });
  }

  /** Name, symbol and decimals of many tokens in JSON-RPC batches; null for a token that does not answer all three. */
  async tokenMetadataMany(addresses: string[]): Promise<Array<{ name: string; symbol: string; decimals: number } | null>> {
    const fns = ['name', 'symbol', 'decimals'] as const;
    const raw = await this.batchCalls(addresses.flatMap((to) => fns.map((fn) => ({ to, data: ERC20.encodeFunctionData(fn) }))), true);
    return addresses.map((_, i) => {
      try {
        const [name, symbol, decimals] = fns.map((fn, k) => ERC20.decodeFunctionResult(fn, raw[i * 3 + k] ?? '0x')[0] as unknown);
        const d = Number(decimals);
        return d >= 0 && d <= 255 ? { name: String(name), symbol: String(symbol), decimals: d } : null;
      } catch {
        return null;
      }
    });
  }

  /**
   * What discovery needs from [fromBlock, toBlock], in one eth_getLogs: creation events of
   * `factories` (V3 ones with their tick spacing) and every V3 Mint (the caller keeps those of
   * its pools: the tick bitmap words they touch). No address filter, so pools created in the same
   * range are covered; a provider refusing the size gets the range halved (readInRanges).
   */
  async discoveryLogs(fromBlock: number, toBlock: number, factories: string[]): Promise<DiscoveryLog[]> {
    const logs = (await this.provider.send('eth_getLogs', [{ fromBlock: toQuantity(fromBlock), toBlock: toQuantity(toBlock), topics: [[PAIR_CREATED_TOPIC, POOL_CREATED_TOPIC, V3_TOPICS.mint]] }])) as Array<{ address: string; topics: string[]; data: string; blockNumber: string }>;
    const wanted = new Set(factories);
    return logs.flatMap((log): DiscoveryLog[] => {
      const address = log.address.toLowerCase();
      const block = Number(BigInt(log.blockNumber));
      if (log.topics[0] === V3_TOPICS.mint) {
        const parsed = V3_POOL.decodeEventLog('Mint', log.data, log.topics);
        return [{ kind: 'mint', pool: address, tickLower: Number(parsed[2]), tickUpper: Number(parsed[3]), block }];
      }
      if (!wanted.has(address)) return [];
      return [{ ...decodeCreation(address, log.topics, log.data), block }];
    });
  }

  /** A V3 pool's state with its ticks from TickLens for the given bitmap words only (no bitmap scan). */
  async v3StateInWords(pool: string, tickLens: string, words: number[]): Promise<{ sqrtPriceX96: bigint; tick: number; liquidity: bigint; tickSpacing: number; ticks: V3Tick[] }> {
    const read = async (fn: string) => V3_POOL.decodeFunctionResult(fn, await this.provider.call({ to: pool, data: V3_POOL.encodeFunctionData(fn) }));
    const [slot0, liquidity, spacing, answers] = await Promise.all([
      read('slot0'),
      read('liquidity'),
      read('tickSpacing'),
      this.batchCalls(words.map((w) => ({ to: tickLens, data: TICK_LENS.encodeFunctionData('getPopulatedTicksInWord', [pool, w]) }))),
    ]);
    const ticks = answers.flatMap((raw) =>
      (TICK_LENS.decodeFunctionResult('getPopulatedTicksInWord', raw)[0] as Array<[bigint, bigint, bigint]>).map((t) => ({ index: Number(t[0]), liquidityNet: BigInt(t[1]), liquidityGross: BigInt(t[2]) })),
    );
    return { sqrtPriceX96: BigInt(slot0[0] as bigint), tick: Number(slot0[1]), liquidity: BigInt(liquidity[0] as bigint), tickSpacing: Number(spacing[0]), ticks: ticks.sort((a, b) => a.index - b.index) };
  }

  /** eth_calls in JSON-RPC batches (one HTTP request per BITMAP_BATCH calls), results in order. */
  private async batchCalls(calls: Array<{ to: string; data: string }>, tolerant = false): Promise<string[]> {
    const out: string[] = [];
    for (let i = 0; i < calls.length; i += BITMAP_BATCH) {
      const chunk = calls.slice(i, i + BITMAP_BATCH);
      const payload = chunk.map((c, k) => ({ jsonrpc: '2.0' as const, id: k + 1, method: 'eth_call', params: [c, 'latest'] }));
      const results = await this.provider._send(payload);
      const byId = new Map(results.map((r) => [Number(r.id), r]));
      for (let k = 0; k < chunk.length; k++) {
        const r = byId.get(k + 1) as { result?: string; error?: { message?: string } } | undefined;
        if (!r || typeof r.result !== 'string') {
          if (tolerant) {
            out.push('0x');
            continue;
          }
          throw new Error(`eth_call batch failed: ${r?.error?.message ?? 'no result'}`);
        }
        out.push(r.result);
      }
    }
    return out;
  }

  async blockNumber(): Promise<number> {
    return Number(BigInt((await this.provider.send('eth_blockNumber', [])) as string));
  }

  async gasPrice(): Promise<bigint> {
    return BigInt((await this.provider.send('eth_gasPrice', [])) as string);
  }

  /** Pool events (V2 Sync; V3 Initialize, Swap, Mint, Burn) and factory events (PairCreated, PoolCreated), in chain order. */
  async poolEvents(fromBlock: number, toBlock: number, addresses: string[]): Promise<PoolEvent[]> {
    if (addresses.length === 0) return [];
    const logs = await this.provider.getLogs({
      fromBlock,
      toBlock,
      address: addresses,
      topics: [[SYNC_TOPIC, PAIR_CREATED_TOPIC, POOL_CREATED_TOPIC, V3_TOPICS.initialize, V3_TOPICS.swap, V3_TOPICS.mint, V3_TOPICS.burn]],
    });
    return logs.map((log): PoolEvent => {
      const address = log.address.toLowerCase();
      const topic = log.topics[0];
      if (topic === SYNC_TOPIC) {
        const [reserve0, reserve1] = PAIR.decodeEventLog('Sync', log.data, log.topics) as unknown as [bigint, bigint];
        return { kind: 'sync', address, reserve0, reserve1 };
      }
      if (topic === PAIR_CREATED_TOPIC || topic === POOL_CREATED_TOPIC) return decodeCreation(address, [...log.topics], log.data);
      if (topic === V3_TOPICS.swap || topic === V3_TOPICS.initialize) {
        const swap = topic === V3_TOPICS.swap;
        const parsed = V3_POOL.decodeEventLog(swap ? 'Swap' : 'Initialize', log.data, log.topics);
        return swap
          ? { kind: 'v3-price', address, sqrtPriceX96: BigInt(parsed[4] as bigint), tick: Number(parsed[6]), liquidity: BigInt(parsed[5] as bigint) }
          : { kind: 'v3-price', address, sqrtPriceX96: BigInt(parsed[0] as bigint), tick: Number(parsed[1]), liquidity: null };
      }
      const mint = topic === V3_TOPICS.mint;
      const parsed = V3_POOL.decodeEventLog(mint ? 'Mint' : 'Burn', log.data, log.topics);
      const amount = BigInt((mint ? parsed[4] : parsed[3]) as bigint);
      return { kind: 'v3-position', address, tickLower: Number(mint ? parsed[2] : parsed[1]), tickUpper: Number(mint ? parsed[3] : parsed[2]), liquidityDelta: mint ? amount : -amount };
    });
  }
}

function decodeCreation(factory: string, topics: string[], data: string): Extract<PoolEvent, { kind: 'created' }> {
  if (topics[0] === PAIR_CREATED_TOPIC) {
    const parsed = FACTORY.decodeEventLog('PairCreated', data, topics);
    return { kind: 'created', factory, token0: String(parsed[0]).toLowerCase(), token1: String(parsed[1]).toLowerCase(), pair: String(parsed[2]).toLowerCase() };
  }
  const parsed = V3_FACTORY.decodeEventLog('PoolCreated', data, topics);
  return { kind: 'created', factory, token0: String(parsed[0]).toLowerCase(), token1: String(parsed[1]).toLowerCase(), pair: String(parsed[4]).toLowerCase(), fee: Number(parsed[2]), tickSpacing: Number(parsed[3]) };
}

/** The tick bitmap word holding `tick` (TickBitmap.position: the compressed tick's high bits). */
export function bitmapWord(tick: number, tickSpacing: number): number {
  return Math.floor(tick / tickSpacing) >> 8;
}

export type DiscoveryLog =
  | (Extract<PoolEvent, { kind: 'created' }> & { block: number })
  | { kind: 'mint'; pool: string; tickLower: number; tickUpper: number; block: number };

export type PoolEvent =
  | { kind: 'sync'; address: string; reserve0: bigint; reserve1: bigint }
  /** V2 PairCreated or V3 PoolCreated (with its fee and tick spacing). */
  | { kind: 'created'; factory: string; token0: string; token1: string; pair: string; fee?: number; tickSpacing?: number }
  /** V3 Swap (liquidity after it) or Initialize (liquidity unchanged: null). */
  | { kind: 'v3-price'; address: string; sqrtPriceX96: bigint; tick: number; liquidity: bigint | null }
  /** V3 Mint (positive) or Burn (negative) of a position's liquidity. */
  | { kind: 'v3-position'; address: string; tickLower: number; tickUpper: number; liquidityDelta: bigint };
