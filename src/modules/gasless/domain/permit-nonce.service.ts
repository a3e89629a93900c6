import { randomBytes } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { Interface, JsonRpcProvider } from 'ethers';
import Redis from 'ioredis';
import { AppError } from '../../../common/errors/app-error';
import { REDIS } from '../../../redis/redis.module';
import { ProviderCallError } from '../../../common/evm/provider-error';

const PERMIT2 = new Interface(['function nonceBitmap(address owner, uint256 wordPos) view returns (uint256)']);
const ATTEMPTS = 4;

/**
 * Picks Permit2 unordered nonces for gasless quotes: random (so quotes never collide across
 * instances), checked against the owner's on-chain bitmap, and reserved in Redis until the
 * permit's deadline so two open quotes of one owner never share a nonce.
 */
@Injectable()
export class PermitNonceService {
  constructor(@Inject(REDIS) private readonly redis: Redis) {}

  async allocate(provider: JsonRpcProvider, chainId: number, permit2: string, owner: string, ttlMs: number): Promise<bigint> {
    for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
      const nonce = BigInt(`0x${randomBytes(32).toString('hex')}`);
      if (await this.usedOnChain(provider, permit2, owner, nonce)) continue;
      const key = `permit-nonce:${chainId}:${owner.toLowerCase()}:${nonce}`;
      if ((await this.redis.set(key, '1', 'PX', ttlMs, 'NX')) === 'OK') return nonce;
    }
    // 2^256 random draws colliding four times means the bitmap read is lying; say so.
    throw new AppError('CHAIN_003', 'could not find an unused Permit2 nonce');
  }

  async usedOnChain(provider: JsonRpcProvider, permit2: string, owner: string, nonce: bigint): Promise<boolean> {
    let raw: string;
    try {
      raw = await provider.call({ to: permit2, data: PERMIT2.encodeFunctionData('nonceBitmap', [owner, nonce >> 8n]) });
    } catch (err) {
      throw new ProviderCallError('Permit2 nonceBitmap read failed', err);
    }
    const bitmap = BigInt(raw === '0x' ? 0 : raw);
    return ((bitmap >> (nonce & 0xffn)) & 1n) === 1n;
  }
}
