import { Injectable } from '@nestjs/common';
import { ZeroAddress } from 'ethers';
import { microToUsd } from '../../../common/money/usd';
import { ChainRegistry } from '../../chains';
import { confirmationsOf } from '../../relay';
import { DepositDto, DepositListDto, DEPOSITS_DEFAULT_LIMIT, FundingDto } from '../http/funding.dto';
import { DepositStore } from '../store/deposit.store';
import { DepositAddresses } from './deposit-addresses.service';
import { DepositWatcher } from './deposit-watcher.service';

/** What GET /api/funding and GET /api/deposits answer. */
@Injectable()
export class FundingService {
  constructor(
    private readonly registry: ChainRegistry,
    private readonly addresses: DepositAddresses,
    private readonly watcher: DepositWatcher,
    private readonly deposits: DepositStore,
  ) {}

  async funding(userId: string): Promise<FundingDto> {
    const depositAddress = await this.addresses.forAccount(userId);
    const chains = this.watcher.chains().map((chain) => ({
      chainId: chain.chainId,
      tokens: [
        ...this.watcher.stableTokens(chain).map((t) => ({ address: t.address, symbol: t.symbol, decimals: t.decimals })),
        { address: ZeroAddress, symbol: chain.nativeCurrency.symbol, decimals: chain.nativeCurrency.decimals },
      ],
      confirmations: confirmationsOf(chain),
    }));
    return { depositAddress, chains };
  }

  async list(userId: string, limit = DEPOSITS_DEFAULT_LIMIT, cursor?: string): Promise<DepositListDto> {
    const rows = await this.deposits.listForUser(userId, limit + 1, cursor);
    const page = rows.slice(0, limit);
    const heads = new Map<number, number | null>();
    for (const chainId of new Set(page.map((r) => r.chainId))) {
      heads.set(chainId, await this.head(chainId));
    }
    const items: DepositDto[] = page.map((r) => {
      const chain = this.registry.find(r.chainId);
      const required = chain ? confirmationsOf(chain) : 0;
      const head = heads.get(r.chainId);
      const depth = head === null || head === undefined ? (r.status === 'credited' ? required : 0) : Math.max(0, head - r.blockNumber);
      return {
        chainId: r.chainId,
        txHash: r.txHash,
        logIndex: r.logIndex,
        token: r.token,
        amount: r.amount,
        creditedUsd: r.creditedMicro === null ? null : microToUsd(BigInt(r.creditedMicro)),
        status: r.status === 'credited' ? 'credited' : 'seen',
        confirmations: depth,
        creditedAt: r.creditedAt ? new Date(r.creditedAt).toISOString() : null,
      };
    });
    return { items, nextCursor: rows.length > limit ? page[page.length - 1].id : null };
  }

  /** The chain's head for the depth shown; null when the chain does not answer (the list still answers). */
  private async head(chainId: number): Promise<number | null> {
    try {
      return Number(BigInt((await this.registry.provider(chainId).send('eth_blockNumber', [])) as string));
    } catch {
      return null;
    }
  }
}
