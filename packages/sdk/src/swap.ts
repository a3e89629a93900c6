import { RelayTimeoutError } from './errors';
import { data, type ApiClient } from './http';
import type { paths } from './generated/api';
import type { BestPath, Route, SwapStatus, SwapTx, Token } from './types';

export type SwapQuoteQuery = paths['/quote']['get']['parameters']['query'];

/** What `swap.crossChain` tells as a bridge order moves: `pending` → `src_confirmed` → `completed` (or `failed`: refunded). */
export interface CrossChainOptions {
  timeoutMs?: number;
  pollIntervalMs?: number;
  onStatus?: (status: SwapStatus) => void;
}

export interface CrossChainResult {
  route: BestPath['route'];
  /** The source-chain transaction (the deposit into the bridge). */
  txHash: string;
  /** The final tracking record: `completed` (destTxDetails.txHash is the fill) or `failed` (details.refundTxHash). */
  status: SwapStatus;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

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

  /**
   * A swap across two chains (extensions.md, "Cross-chain swaps"): GET /build-best-path for the
   * pair, `send` sends its source `Tx` from the sender's wallet (after approving
   * `Tx.allowanceTarget` for the input token) and returns its hash, then GET /status is followed
   * until the destination fill (`completed`) or the refund (`failed`).
   */
  async crossChain(query: SwapQuoteQuery, send: (built: BestPath) => Promise<string>, options: CrossChainOptions = {}): Promise<CrossChainResult> {
    if (query.fromChain === query.toChain) throw new Error('swap.crossChain is for two chains; use buildBestPath for one');
    const built = await this.buildBestPath(query);
    const txHash = await send(built);
    const status = await this.waitForBridge(txHash, query.fromChain, options);
    return { route: built.route, txHash, status };
  }

  /** Polls GET /status of a bridge deposit until `completed` or `failed`, reporting each new state. */
  async waitForBridge(txHash: string, fromChain: number, options: CrossChainOptions = {}): Promise<SwapStatus> {
    const deadline = Date.now() + (options.timeoutMs ?? 120_000);
    let last = '';
    for (;;) {
      const status = await this.status(txHash, fromChain);
      if (status.status !== last) options.onStatus?.(status);
      last = status.status;
      if (status.status === 'completed' || status.status === 'failed') return status;
      if (Date.now() > deadline) throw new RelayTimeoutError(`bridge deposit ${txHash} still ${status.status}`, status);
      await sleep(options.pollIntervalMs ?? 1_000);
    }
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
