import { Injectable, Logger } from '@nestjs/common';
import { Contract } from 'ethers';
import { ChainDefinition, ChainRegistry } from '../../chains';
import { NativePriceSource } from './price-source';

const AGGREGATOR_V3_ABI = [
  'function decimals() view returns (uint8)',
  'function latestRoundData() view returns (uint80 roundId, int256 answer, uint256 startedAt, uint256 updatedAt, uint80 answeredInRound)',
];

/**
 * The chain's Chainlink AggregatorV3Interface feed: `answer / 10^decimals()`, or null when the
 * round is older than `maxAgeSeconds` or not positive (the next source answers then).
 */
@Injectable()
export class ChainlinkPriceSource implements NativePriceSource {
  readonly name = 'chainlink';
  private readonly logger = new Logger(ChainlinkPriceSource.name);
  /** A feed's decimals never change: one read per feed. */
  private readonly decimals = new Map<string, Promise<bigint>>();

  constructor(private readonly registry: ChainRegistry) {}

  async nativeUsd(chain: ChainDefinition): Promise<number | null> {
    const feed = chain.pricing?.chainlink;
    if (!feed || !chain.rpcUrl) return null;
    const aggregator = new Contract(feed.nativeUsd, AGGREGATOR_V3_ABI, this.registry.provider(chain.chainId));
    const [round, decimals] = await Promise.all([aggregator.latestRoundData() as Promise<[bigint, bigint, bigint, bigint, bigint]>, this.decimalsOf(chain.chainId, aggregator)]);
    const [, answer, , updatedAt] = round;
    const ageSeconds = Math.floor(Date.now() / 1000) - Number(updatedAt);
    if (answer <= 0n) {
      this.logger.warn(`chain ${chain.chainId}: feed ${feed.nativeUsd} answers ${answer}, not a price`);
      return null;
    }
    if (ageSeconds > feed.maxAgeSeconds) {
      this.logger.warn(`chain ${chain.chainId}: feed ${feed.nativeUsd} last updated ${ageSeconds} s ago (maxAgeSeconds ${feed.maxAgeSeconds})`);
      return null;
    }
    return scaledToNumber(answer, decimals);
  }

  /**
   * The feed's answer as of block `blockNumber` (`eth_call` at that block), in micro-USD per whole
   * native unit, with the round's age measured against that block's time; null when the chain has
   * no feed or the round was stale or not positive then. What the deposit watcher credits a
   * native deposit at: any worker reading it later gets the same price.
   */
  async nativeMicroUsdAt(chain: ChainDefinition, blockNumber: number): Promise<bigint | null> {
    const feed = chain.pricing?.chainlink;
    if (!feed || !chain.rpcUrl) return null;
    const provider = this.registry.provider(chain.chainId);
    const aggregator = new Contract(feed.nativeUsd, AGGREGATOR_V3_ABI, provider);
    const [round, decimals, block] = await Promise.all([
      aggregator.latestRoundData({ blockTag: blockNumber }) as Promise<[bigint, bigint, bigint, bigint, bigint]>,
      this.decimalsOf(chain.chainId, aggregator),
      provider.getBlock(blockNumber),
    ]);
    const [, answer, , updatedAt] = round;
    if (!block || answer <= 0n || block.timestamp - Number(updatedAt) > feed.maxAgeSeconds) return null;
    return decimals >= 6n ? answer / 10n ** (decimals - 6n) : answer * 10n ** (6n - decimals);
  }

  private decimalsOf(chainId: number, aggregator: Contract): Promise<bigint> {
    const key = `${chainId}:${String(aggregator.target).toLowerCase()}`;
    let pending = this.decimals.get(key);
    if (!pending) {
      pending = (aggregator.decimals() as Promise<bigint>).then(BigInt);
      pending.catch(() => this.decimals.delete(key));
      this.decimals.set(key, pending);
    }
    return pending;
  }
}

/** answer / 10^decimals to 6 decimal places, the precision prices are charged at (weiToMicroUsd). */
function scaledToNumber(answer: bigint, decimals: bigint): number {
  const micro = decimals >= 6n ? answer / 10n ** (decimals - 6n) : answer * 10n ** (6n - decimals);
  return Number(micro) / 1e6;
}
