import { Injectable } from '@nestjs/common';
import type { JsonRpcProvider } from 'ethers';
import { ChainRegistry } from '../../chains';
import { ERC4626_IFACE } from './vault-abi';
import type { Venue } from './venue-registry';
import { ProviderCallError, providerErrorCode } from '../../../common/evm/provider-error';

export type VenueHealth = { healthy: true; totalAssets: bigint; maxDeposit: bigint } | { healthy: false; reason: string };

/** Every on-chain read of the vault feature, over the chain registry's providers. */
@Injectable()
export class VaultReader {
  private readonly decimals = new Map<string, Promise<number>>();

  constructor(private readonly chains: ChainRegistry) {}

  /** Unreadable, paused or full venues are unhealthy; a vault without paused() is taken as never paused. */
  async health(venue: Venue, user: string): Promise<VenueHealth> {
    const provider = this.chains.provider(venue.chainId);
    try {
      const [totalAssets, maxDeposit, paused] = await Promise.all([
        this.read(provider, venue.vault, 'totalAssets', []) as Promise<bigint>,
        this.read(provider, venue.vault, 'maxDeposit', [user]) as Promise<bigint>,
        (this.read(provider, venue.vault, 'paused', []) as Promise<boolean>).catch(() => false),
      ]);
      if (paused) return { healthy: false, reason: 'paused' };
      if (maxDeposit === 0n) return { healthy: false, reason: 'deposit limit reached' };
      return { healthy: true, totalAssets, maxDeposit };
    } catch (err) {
      return { healthy: false, reason: `unreadable: ${providerErrorCode(err)}` };
    }
  }

  /** Assets per PRICE_SCALE shares at a block, and the vault's total assets then. */
  async sharePrice(venue: Venue, blockNumber: number): Promise<{ assetsPerShare: bigint; totalAssets: bigint }> {
    const provider = this.chains.provider(venue.chainId);
    const scale = 10n ** BigInt((await this.vaultDecimals(provider, venue)) + 18);
    const [assetsPerShare, totalAssets] = await Promise.all([
      this.read(provider, venue.vault, 'convertToAssets', [scale], blockNumber) as Promise<bigint>,
      this.read(provider, venue.vault, 'totalAssets', [], blockNumber) as Promise<bigint>,
    ]);
    return { assetsPerShare, totalAssets };
  }

  /** 500 CHAIN_003 when the balance cannot be read (interface.md, POST /v1/withdrawals). */
  async shareBalance(venue: Venue, user: string): Promise<bigint> {
    try {
      return (await this.read(this.chains.provider(venue.chainId), venue.vault, 'balanceOf', [user])) as bigint;
    } catch (err) {
      throw new ProviderCallError(`share balance of ${user} in ${venue.vault} could not be read`, err);
    }
  }

  async previewRedeem(venue: Venue, shares: bigint): Promise<bigint> {
    return (await this.read(this.chains.provider(venue.chainId), venue.vault, 'previewRedeem', [shares])) as bigint;
  }

  async accountNonce(chainId: number, address: string): Promise<number> {
    return this.rpc(() => this.chains.provider(chainId).getTransactionCount(address, 'latest'));
  }

  async code(chainId: number, address: string): Promise<string> {
    return this.rpc(() => this.chains.provider(chainId).getCode(address));
  }

  async latestBlock(chainId: number): Promise<{ number: number; timestamp: number }> {
    const block = await this.chains.provider(chainId).getBlock('latest');
    if (!block) throw new Error(`chain ${chainId} returned no latest block`);
    return { number: block.number, timestamp: block.timestamp };
  }

  private vaultDecimals(provider: JsonRpcProvider, venue: Venue): Promise<number> {
    const key = `${venue.chainId}:${venue.vault}`;
    let pending = this.decimals.get(key);
    if (!pending) {
      pending = (this.read(provider, venue.vault, 'decimals', []) as Promise<bigint>).then(Number);
      pending.catch(() => this.decimals.delete(key));
      this.decimals.set(key, pending);
    }
    return pending;
  }

  private async read(provider: JsonRpcProvider, to: string, fn: string, args: unknown[], blockTag?: number): Promise<unknown> {
    const raw = await provider.call({ to, data: ERC4626_IFACE.encodeFunctionData(fn, args), blockTag });
    return ERC4626_IFACE.decodeFunctionResult(fn, raw)[0];
  }

  private async rpc<T>(fn: () => Promise<T>): Promise<T> {
    try {
      return await fn();
    } catch (err) {
      throw new ProviderCallError('RPC read failed', err);
    }
  }
}
