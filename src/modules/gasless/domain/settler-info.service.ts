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
  /** The swap executor the settler calls: part of every settlement's nonce commitment. */
  executor: string;
}

/**
 * The chain's gasless settler and Permit2 (from the chains file's `contracts`), and the fee
 * recipient and executor read from the settler itself: quotes name whoever the contract really
 * pays and commit to the executor it really calls.
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
    const settler = contracts.gaslessSettler;
    const [feeRecipient, executor] = await Promise.all([this.readAddress(chainId, settler, 'feeRecipient'), this.readAddress(chainId, settler, 'executor')]);
    return { address: getAddress(settler), permit2: getAddress(contracts.permit2), feeRecipient, executor };
  }

  private async readAddress(chainId: number, settler: string, fn: 'feeRecipient' | 'executor'): Promise<string> {
    let raw: string;
    try {
      raw = await this.chains.provider(chainId).call({ to: settler, data: GASLESS_SETTLER_ABI.encodeFunctionData(fn) });
    } catch (err) {
      throw new ProviderCallError(`reading the gasless settler on chain ${chainId} failed`, err);
    }
    if (raw.length !== 66) throw new AppError('CHAIN_003', `no gasless settler answers at ${settler} on chain ${chainId}`);
    const [value] = GASLESS_SETTLER_ABI.decodeFunctionResult(fn, raw) as unknown as [string];
    return getAddress(value);
  }
}
