import { Injectable } from '@nestjs/common';
import type { TransactionReceipt } from 'ethers';
import type { Caller } from '../../../common/http/authenticated-request';
import type { QuoteQueryDto } from '../dto/swap-requests.dto';
import type { SwapStatusView } from '../tracking/swap-status-view';
import type { TxView } from './route-view';
import type { StoredQuote } from './stored-quote';

/** What answers the swap API for a pair on two chains (the bridge module). */
export interface CrossChainProvider {
  /** Routes for `fromChain != toChain`, stored like same-chain quotes (`crossChain` set). */
  quote(caller: Caller, q: QuoteQueryDto, options: { icons: boolean }): Promise<StoredQuote[]>;
  /** The source-chain `Tx` of a cross-chain quote. */
  transaction(quote: StoredQuote, simulation: boolean): TxView;
  /** The tracking record of a source transaction it knows, else null. */
  status(txHash: string, chainId: number, userAddress?: string): Promise<SwapStatusView | null>;
  /** The record of a mined source transaction holding a bridge deposit not yet recorded, else null. */
  fromReceipt(chainId: number, receipt: TransactionReceipt, userAddress?: string): SwapStatusView | null;
}

/**
 * Where the bridge module plugs into the swap API. The bridge uses the swap module's router and
 * executor calls, so the swap module cannot import it; the bridge registers itself here at start.
 * Without a provider a cross-chain pair has no route, as before.
 */
@Injectable()
export class CrossChainRoutes {
  private provider: CrossChainProvider | null = null;

  register(provider: CrossChainProvider): void {
    this.provider = provider;
  }

  get(): CrossChainProvider | null {
    return this.provider;
  }
}
