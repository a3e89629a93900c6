import { randomInt } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { Interface, JsonRpcProvider } from 'ethers';
import Redis from 'ioredis';
import { AppError } from '../../../common/errors/app-error';
import { REDIS } from '../../../redis/redis.module';
import { ProviderCallError } from '../../../common/evm/provider-error';

const PERMIT2 = new Interface(['function nonceBitmap(address owner, uint256 wordPos) view returns (uint256)']);
const BITS_PER_WORD = 256;

/**
 * Picks Permit2 unordered nonces for gasless quotes. The word (nonce >> 8) is given: it is the
 * settlement's commitment (settlementNonceWord), so only the bit is chosen here — at random among
 * those unused in the owner's on-chain bitmap, and reserved in Redis until the permit's deadline
 * so two open quotes of the same settlement never share a nonce.
 */
@Injectable()
export class PermitNonceService {
  constructor(@Inject(REDIS) private readonly redis: Redis) {}

  async allocate(provider: JsonRpcProvider, chainId: number, permit2: string, owner: string, word: bigint, ttlMs: number): Promise<bigint> {
    const bitmap = await this.bitmap(provider, permit2, owner, word);
    const free = Array.from({ length: BITS_PER_WORD }, (_, bit) => bit).filter((bit) => ((bitmap >> BigInt(bit)) & 1n) === 0n);
    // Random order: concurrent quotes of one settlement rarely race for the same bit.
    for (let i = free.length - 1; i > 0; i--) {
      const j = randomInt(i + 1);
      [free[i], free[j]] = [free[j], free[i]];
    }
    for (const bit of free) {
      const nonce = (word << 8n) | BigInt(bit);
      const key = `permit-nonce:${chainId}:${owner.toLowerCase()}:${nonce}`;
      if ((await this.redis.set(key, '1', 'PX', ttlMs, 'NX')) === 'OK') return nonce;
    }
    // 256 open or used permits for one identical settlement: something is replaying quotes.
    throw new AppError('VALIDATION_001', 'too many open quotes for this exact settlement: try again after their deadline');
  }

  private async bitmap(provider: JsonRpcProvider, permit2: string, owner: string, word: bigint): Promise<bigint> {
    let raw: string;
    try {
      raw = await provider.call({ to: permit2, data: PERMIT2.encodeFunctionData('nonceBitmap', [owner, word]) });
    } catch (err) {
      throw new ProviderCallError('Permit2 nonceBitmap read failed', err);
    }
    return BigInt(raw === '0x' ? 0 : raw);
  }
}
