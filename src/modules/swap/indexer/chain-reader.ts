import { Interface, JsonRpcProvider, ZeroAddress, id } from 'ethers';

const ERC20 = new Interface(['function name() view returns (string)', 'function symbol() view returns (string)', 'function decimals() view returns (uint8)']);
const FACTORY = new Interface(['function getPair(address,address) view returns (address)', 'event PairCreated(address indexed token0, address indexed token1, address pair, uint256)']);
const PAIR = new Interface(['function getReserves() view returns (uint112, uint112, uint32)', 'event Sync(uint112 reserve0, uint112 reserve1)']);

export const SYNC_TOPIC = id('Sync(uint112,uint112)');
export const PAIR_CREATED_TOPIC = id('PairCreated(address,address,address,uint256)');

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

  async blockNumber(): Promise<number> {
    return Number(BigInt((await this.provider.send('eth_blockNumber', [])) as string));
  }

  async gasPrice(): Promise<bigint> {
    return BigInt((await this.provider.send('eth_gasPrice', [])) as string);
  }

  /** Sync events of the pools and PairCreated events of the factories, in chain order. */
  async poolEvents(fromBlock: number, toBlock: number, addresses: string[]): Promise<PoolEvent[]> {
    if (addresses.length === 0) return [];
    const logs = await this.provider.getLogs({ fromBlock, toBlock, address: addresses, topics: [[SYNC_TOPIC, PAIR_CREATED_TOPIC]] });
    return logs.map((log): PoolEvent => {
      if (log.topics[0] === SYNC_TOPIC) {
        const [reserve0, reserve1] = PAIR.decodeEventLog('Sync', log.data, log.topics) as unknown as [bigint, bigint];
        return { kind: 'sync', address: log.address.toLowerCase(), reserve0, reserve1 };
      }
      const parsed = FACTORY.decodeEventLog('PairCreated', log.data, log.topics);
      return { kind: 'created', factory: log.address.toLowerCase(), token0: String(parsed[0]).toLowerCase(), token1: String(parsed[1]).toLowerCase(), pair: String(parsed[2]).toLowerCase() };
    });
  }
}

export type PoolEvent =
  | { kind: 'sync'; address: string; reserve0: bigint; reserve1: bigint }
  | { kind: 'created'; factory: string; token0: string; token1: string; pair: string };
