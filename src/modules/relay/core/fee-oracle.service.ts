import { Injectable } from '@nestjs/common';
import { AppConfig } from '../../../config/app-config';
import { ChainRegistry } from '../../chains';
import type { FeeSettings } from './fees';
import { marketFees } from './market-fees';

interface Cached {
  at: number;
  fees: Promise<FeeSettings>;
}

/**
 * Market fees for estimates, shared for RELAY_FEE_CACHE_MS per chain: every submission needs
 * them, and two RPC round trips per submission bought nothing between blocks. The estimate's
 * max fee already carries two base fees of headroom; replacements read fresh fees themselves.
 */
@Injectable()
export class FeeOracle {
  private readonly cache = new Map<number, Cached>();

  constructor(
    private readonly chains: ChainRegistry,
    private readonly config: AppConfig,
  ) {}

  fees(chainId: number): Promise<FeeSettings> {
    const cached = this.cache.get(chainId);
    if (cached && Date.now() - cached.at < this.config.RELAY_FEE_CACHE_MS) return cached.fees;
    const fees = marketFees(this.chains.provider(chainId));
    this.cache.set(chainId, { at: Date.now(), fees });
    // A failed read is not shared: the next caller asks the chain again.
    fees.catch(() => {
      if (this.cache.get(chainId)?.fees === fees) this.cache.delete(chainId);
    });
    return fees;
  }
}
