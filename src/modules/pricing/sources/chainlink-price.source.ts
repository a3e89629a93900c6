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
