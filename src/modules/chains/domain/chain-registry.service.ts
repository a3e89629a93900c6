import { Injectable, OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import { JsonRpcProvider, Network } from 'ethers';
import { MetricsService } from '../../metrics';
import { AppError } from '../../../common/errors/app-error';
import { runDetached } from '../../../common/trace/tracing';
import { registerProviderUrl } from '../../../common/evm/provider-url';
import { AppConfig } from '../../../config/app-config';
import { environment } from '../../../config/process-env';
import { ChainDefinition } from './chain-definition';
import { loadChainsFile } from './load-chains-file';
import { mergeTokens, tokensFromList } from './token-list';
import { PooledJsonRpcProvider } from './rpc/pooled-provider';
import { RpcPool } from './rpc/rpc-pool';

/**
 * The configured chains and, per EVM chain, one provider pool (its `rpcUrls`) behind one ethers
 * provider. Providers use a static network so an unreachable RPC never blocks or crashes
 * anything; ChainHealthService says whether a chain is usable right now.
 */
@Injectable()
export class ChainRegistry implements OnModuleInit, OnModuleDestroy {
  private readonly chains: Map<number, ChainDefinition>;
  private readonly pools = new Map<number, { provider: PooledJsonRpcProvider; pool: RpcPool; timer: NodeJS.Timeout }>();

  constructor(
    private readonly config: AppConfig,
    private readonly metrics: MetricsService,
  ) {
    this.chains = new Map(loadChainsFile(config.CHAINS_FILE, environment()).map((c) => [c.chainId, c]));
    // The logger removes these from every line (their keys must not reach log storage).
    for (const chain of this.chains.values()) {
      for (const p of chain.providers ?? []) registerProviderUrl(p.url);
      if (chain.exchangeApiUrl) registerProviderUrl(chain.exchangeApiUrl);
    }
  }

  /**
   * Token lists join the chains' `tokens` before any other module starts (the modules that read
   * tokens import this one, so Nest runs this hook first); an invalid list stops startup.
   */
  async onModuleInit(): Promise<void> {
    await Promise.all(
      this.all()
        .filter((c) => c.tokenList)
        .map(async (chain) => {
          const listed = await tokensFromList(chain.tokenList as string, chain.chainId, this.config.CHAINS_FILE).catch((err: Error) => {
            throw new Error(`CHAINS_FILE ${this.config.CHAINS_FILE}: ${err.message}`);
          });
          chain.tokens = mergeTokens(chain.tokens ?? [], listed);
        }),
    );
  }

  all(): ChainDefinition[] {
    return [...this.chains.values()];
  }

  find(chainId: number): ChainDefinition | undefined {
    return this.chains.get(chainId);
  }

  /** CHAIN_001 for chains that are not configured or not enabled. */
  get(chainId: number): ChainDefinition {
    const chain = this.chains.get(chainId);
    if (!chain || !chain.enabled) throw new AppError('CHAIN_001', `chain ${chainId} is not supported`);
    return chain;
  }

  /** The chain's ethers provider: every call goes through its provider pool. */
  provider(chainId: number): JsonRpcProvider {
    return this.entry(chainId).provider;
  }

  /** The chain's providers (failover, back-off, head lag): for health views and the relay's broadcasts. */
  pool(chainId: number): RpcPool {
    return this.entry(chainId).pool;
  }

  /**
   * The one broadcast of the provider layer: the same signed bytes to every available provider;
   * resolves with the hash when one accepts, else rejects with the most telling refusal (as an
   * ethers error, read by the relay's classifier) or RpcUnavailableError.
   */
  async broadcast(chainId: number, raw: string): Promise<string> {
    return (await this.provider(chainId).send('eth_sendRawTransaction', [raw])) as string;
  }

  private entry(chainId: number): { provider: PooledJsonRpcProvider; pool: RpcPool } {
    const existing = this.pools.get(chainId);
    if (existing) return existing;
    const chain = this.get(chainId);
    if (!chain.rpcUrl) throw new AppError('CHAIN_001', `chain ${chainId} takes exchange actions, not EVM transactions`);
    const label = String(chainId);
    const pool = new RpcPool(chain.providers ?? [{ url: chain.rpcUrl, weight: 1 }], {
      chainId,
      timeoutMs: this.config.RPC_TIMEOUT_MS,
      maxLagBlocks: this.config.RPC_MAX_LAG_BLOCKS,
      getLogsMaxRange: chain.getLogsMaxRange,
      observe: (provider, method, outcome, seconds) => {
        this.metrics.rpcRequests.inc({ chain: label, provider, method, outcome });
        this.metrics.rpcDuration.observe({ chain: label, method }, seconds);
      },
      onHealth: (provider, healthy) => this.metrics.rpcProviderHealthy.set({ chain: label, provider }, healthy ? 1 : 0),
    });
    for (const e of pool.endpoints) this.metrics.rpcProviderHealthy.set({ chain: label, provider: e.label }, 1);
    const provider = new PooledJsonRpcProvider(pool, Network.from(chainId));
    // Made on the chain's first use, whatever request or job that is: the polls belong to none of them.
    const timer = runDetached(`head-poll-${chainId}`, () => {
      void pool.pollHeads();
      return setInterval(() => void pool.pollHeads(), this.config.RPC_HEAD_POLL_MS).unref();
    });
    const entry = { provider, pool, timer };
    this.pools.set(chainId, entry);
    return entry;
  }

  onModuleDestroy(): void {
    for (const { provider, timer } of this.pools.values()) {
      clearInterval(timer);
      provider.destroy();
    }
  }
}
