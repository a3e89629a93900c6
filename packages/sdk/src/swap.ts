import { data, type ApiClient } from './http';
import type { paths } from './generated/api';
import type { BestPath, Route, SwapStatus, SwapTx, Token } from './types';

export type SwapQuoteQuery = paths['/quote']['get']['parameters']['query'];

export class SwapApi {
  constructor(private readonly api: ApiClient) {}

  /** GET /quote: ranked routes (empty when the pair has none). */
  quote(query: SwapQuoteQuery): Promise<Route[]> {
    return data(this.api.GET('/quote', { params: { query } }));
  }

  /** GET /build-best-path: the best route and its transaction (approve `Tx.allowanceTarget`, then send `Tx` from the sender). */
  buildBestPath(query: SwapQuoteQuery): Promise<BestPath> {
    return data(this.api.GET('/build-best-path', { params: { query } }));
  }

  /** POST /build-path-by-id: the transaction of a stored route. */
  buildById(quoteId: string, simulation = false): Promise<SwapTx> {
    return data(this.api.POST('/build-path-by-id', { body: { quoteId, simulation } }));
  }

  /** GET /status: tracking by source transaction hash (unknown hashes are `pending`). */
  status(txHash: string, fromChain: number, userAddress?: string): Promise<SwapStatus> {
    return data(this.api.GET('/status', { params: { query: { txHash, fromChain, ...(userAddress ? { userAddress } : {}) } } }));
  }

  /** GET /tokens. */
  tokens(chainId?: number): Promise<Token[]> {
    return data(this.api.GET('/tokens', { params: { query: chainId === undefined ? {} : { chain_id: chainId } } }));
  }

  /** GET /search-token. */
  searchToken(query: string, chainId?: number): Promise<Token[]> {
    return data(this.api.GET('/search-token', { params: { query: { query, ...(chainId === undefined ? {} : { chainId }) } } }));
  }
}
