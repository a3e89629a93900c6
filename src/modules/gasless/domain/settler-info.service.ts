import { Injectable } from '@nestjs/common';
import { getAddress } from 'ethers';
import { AppError } from '../../../common/errors/app-error';
import { ChainRegistry } from '../../chains';
import { GASLESS_SETTLER_ABI } from './settlement-call';
import { ProviderCallError } from '../../../common/evm/provider-error';

/** A changed fee recipient shows in quotes within a minute without a read per quote. */
const CACHE_MS = 60_000;

export interface SettlerInfoView {
  address: string;
  permit2: string;
  feeRecipient: string;
}

/**
 * The chain's gasless settler and Permit2 (from the chains file's `contracts`) and the fee
 * recipient, read from the settler itself so quotes name whoever the contract really pays.
 */
@Injectable()
export class SettlerInfo {
  private readonly cache = new Map<number, { at: number; pending: Promise<SettlerInfoView> }>();

  constructor(private readonly chains: ChainRegistry) {}

  get(chainId: number): Promise<SettlerInfoView> {
    const cached = this.cache.get(chainId);
    if (cached && Date.now() - cached.at < CACHE_MS) return cached.pending;
    const pending = this.read(chainId);
    this.cache.set(chainId, { at: Date.now(), pending });
    // A failed read is not remembered: the next quote tries again.
    pending.catch(() => this.cache.delete(chainId));
    return pending;
  }

  private async read(chainId: number): Promise<SettlerInfoView> {
    const contracts = this.chains.get(chainId).contracts ?? {};
    if (!contracts.gaslessSettler || !contracts.permit2) throw new AppError('VALIDATION_003', `gasless swaps are not available on chain ${chainId}`);
    let raw: string;
    try {
      raw = await this.chains.provider(chainId).call({ to: contracts.gaslessSettler, data: GASLESS_SETTLER_ABI.encodeFunctionData('feeRecipient') });
    } catch (err) {
      throw new ProviderCallError(`reading the gasless settler on chain ${chainId} failed`, err);
    }
    if (raw.length !== 66) throw new AppError('CHAIN_003', `no gasless settler answers at ${contracts.gaslessSettler} on chain ${chainId}`);
    const [feeRecipient] = GASLESS_SETTLER_ABI.decodeFunctionResult('feeRecipient', raw) as unknown as [string];
    return { address: getAddress(contracts.gaslessSettler), permit2: getAddress(contracts.permit2), feeRecipient: getAddress(feeRecipient) };
  }
}
