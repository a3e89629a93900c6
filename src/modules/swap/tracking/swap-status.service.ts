import { Injectable } from '@nestjs/common';
import { getAddress, id, TransactionReceipt } from 'ethers';
import { ChainRegistry } from '../../chains';
import { TokenCatalog } from '../catalog/token-catalog.service';
import { SWAP_EXECUTOR_ABI } from '../execution/executor-abi';
import { PoolIndexer } from '../indexer/pool-indexer.service';
import { ProviderCallError } from '../../../common/evm/provider-error';
import { CrossChainRoutes } from '../quotes/cross-chain';
import type { SwapStatusView, TxDetails } from './swap-status-view';

const V2_SWAP_TOPIC = id('Swap(address,uint256,uint256,uint256,uint256,address)');
const V3_SWAP_TOPIC = id('Swap(address,address,int256,int256,uint160,uint128,int24)');

/**
 * GET /status: the receipt of the source transaction decides. No receipt (unknown or not yet
 * mined): pending. A receipt with the executor's Swapped event: completed, with what it paid.
 * A reverted receipt, or a successful one without the event (not a swap of ours): failed.
 */
@Injectable()
export class SwapStatusService {
  constructor(
    private readonly registry: ChainRegistry,
    private readonly catalog: TokenCatalog,
    private readonly indexer: PoolIndexer,
    private readonly crossChain: CrossChainRoutes,
  ) {}

  async status(txHash: string, chainId: number, userAddress?: string): Promise<SwapStatusView> {
    const chain = this.catalog.chain(chainId);
    const bridge = this.crossChain.get();
    const bridged = bridge ? await bridge.status(txHash, chainId, userAddress) : null;
    if (bridged) return bridged;
    const provider = this.registry.provider(chainId);
    const receipt = await provider.getTransactionReceipt(txHash).catch((err: Error) => {
      throw new ProviderCallError('receipt lookup failed', err);
    });
    const logo = chain.iconUrl ? chain.iconUrl : null;
    const empty: TxDetails = { txHash: null, chainId, chainLogo: logo, timestamp: null };
    const base = { kind: 'swap', routeKind: 'sameChainSwap', updatedAtMs: Date.now() };
    if (!receipt) {
      return { ...base, status: 'pending', provider: { key: '', name: '' }, srcTxDetails: { ...empty, txHash }, destTxDetails: empty, userAddress: userAddress ?? null };
    }
    // A deposit into the bridge the filler has not recorded yet: pending.
    const deposit = receipt.status === 1 && bridge ? bridge.fromReceipt(chainId, receipt, userAddress) : null;
    if (deposit) return deposit;
    const block = await provider.getBlock(receipt.blockNumber).catch(() => null);
    const src: TxDetails = { txHash: receipt.hash, chainId, chainLogo: logo, timestamp: block ? new Date(block.timestamp * 1000).toISOString() : null };
    const swapped = this.swappedEvent(receipt, chain.contracts?.swapExecutor);
    const user = userAddress ?? getAddress(receipt.from);
    if (receipt.status !== 1 || !swapped) {
      return { ...base, status: 'failed', provider: this.providerOf(chainId, receipt), srcTxDetails: src, destTxDetails: empty, userAddress: user };
    }
    return {
      ...base,
      status: 'completed',
      provider: this.providerOf(chainId, receipt),
      srcTxDetails: src,
      // Same-chain swaps pay out in the source transaction.
      destTxDetails: src,
      userAddress: user,
      details: swapped,
    };
  }

  private swappedEvent(receipt: TransactionReceipt, executor: string | undefined): Record<string, string> | null {
    if (!executor) return null;
    for (const log of receipt.logs) {
      if (log.address.toLowerCase() !== executor.toLowerCase()) continue;
      const parsed = SWAP_EXECUTOR_ABI.parseLog({ topics: [...log.topics], data: log.data });
      if (parsed?.name !== 'Swapped') continue;
      const a = parsed.args;
      return {
        quoteId: String(a.ref),
        payer: getAddress(String(a.payer)),
        receiver: getAddress(String(a.receiver)),
        tokenIn: getAddress(String(a.tokenIn)),
        tokenOut: getAddress(String(a.tokenOut)),
        amountIn: String(a.amountIn),
        amountOut: String(a.amountOut),
        feeAmount: String(a.feeAmount),
        feeRecipient: getAddress(String(a.feeRecipient)),
      };
    }
    return null;
  }

  /** The DEX deployments whose pools emitted Swap in this transaction, as one provider. */
  private providerOf(chainId: number, receipt: TransactionReceipt): { key: string; name: string } {
    const market = this.indexer.peek(chainId);
    const seen = new Map<string, string>();
    for (const log of receipt.logs) {
      if (log.topics[0] !== V2_SWAP_TOPIC && log.topics[0] !== V3_SWAP_TOPIC) continue;
      const pool = market?.pools.get(log.address.toLowerCase());
      if (pool) seen.set(pool.provider.key, pool.provider.name);
    }
    return { key: [...seen.keys()].join('+'), name: [...seen.values()].join(' + ') };
  }
}
