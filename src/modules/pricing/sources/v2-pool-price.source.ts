import { Injectable } from '@nestjs/common';
import { Contract } from 'ethers';
import { ChainDefinition } from '../../chains';
import { ChainRegistry } from '../../chains';
import { NativePriceSource } from './price-source';

const PAIR_ABI = ['function getReserves() view returns (uint112, uint112, uint32)', 'function token0() view returns (address)'];

/** Spot price of wrapped native in a stablecoin from a Uniswap-V2-style pair's reserves. */
@Injectable()
export class V2PoolPriceSource implements NativePriceSource {
  readonly name = 'v2-pool';

  constructor(private readonly registry: ChainRegistry) {}

  async nativeUsd(chain: ChainDefinition): Promise<number | null> {
    const pool = chain.pricing?.nativeUsdPool;
    if (!pool || !chain.rpcUrl) return null;
    const pair = new Contract(pool.pair, PAIR_ABI, this.registry.provider(chain.chainId));
    const [[reserve0, reserve1], token0] = (await Promise.all([pair.getReserves(), pair.token0()])) as [[bigint, bigint], string];
    const nativeIs0 = token0.toLowerCase() === pool.wrappedNative.toLowerCase();
    const nativeReserve = nativeIs0 ? reserve0 : reserve1;
    const stableReserve = nativeIs0 ? reserve1 : reserve0;
    if (nativeReserve === 0n || stableReserve === 0n) return null;
    // Scale to 1e6 fixed point before leaving bigint so the division keeps its precision.
    const scaled = (stableReserve * 10n ** BigInt(chain.nativeCurrency.decimals) * 1_000_000n) / (nativeReserve * 10n ** BigInt(pool.stableDecimals));
    return Number(scaled) / 1e6;
  }
}
