import { Injectable, OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import { FetchRequest, JsonRpcProvider, Network } from 'ethers';
import { MetricsService } from '../../metrics';
import { AppError } from '../../../common/errors/app-error';
import { registerProviderUrl } from '../../../common/evm/provider-url';
import { AppConfig } from '../../../config/app-config';
import { ChainDefinition } from './chain-definition';
import { loadChainsFile } from './load-chains-file';
import { mergeTokens, tokensFromList } from './token-list';
import { MeteredJsonRpcProvider } from './metered-provider';

const RETRIES_ON_429 = 1;

/**
 * The configured chains and one RPC provider per EVM chain. Providers use a static network
 * so an unreachable RPC never blocks or crashes anything; ChainHealthService says whether a
 * chain is usable right now.
 */
@Injectable()
export class ChainRegistry implements OnModuleInit, OnModuleDestroy {
  private readonly chains: Map<number, ChainDefinition>;
  private readonly providers = new Map<number, JsonRpcProvider>();

  constructor(
    private readonly config: AppConfig,
    private readonly metrics: MetricsService,
  ) {
    this.chains = new Map(loadChainsFile(config.CHAINS_FILE).map((c) => [c.chainId, c]));
    // The logger removes these from every line (their keys must not reach log storage).
    for (const chain of this.chains.values()) {
      if (chain.rpcUrl) registerProviderUrl(chain.rpcUrl);
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

  provider(chainId: number): JsonRpcProvider {
    const existing = this.providers.get(chainId);
    if (existing) return existing;
    const chain = this.get(chainId);
    if (!chain.rpcUrl) throw new AppError('CHAIN_001', `chain ${chainId} takes exchange actions, not EVM transactions`);
    const request = new FetchRequest(chain.rpcUrl);
    request.timeout = this.config.RPC_TIMEOUT_MS;
    // ethers retries a 429 until RPC_TIMEOUT_MS and then reports only "timeout"; one quick retry,
    // then the 429 itself, so callers fail fast and say what happened ("http 429").
    request.retryFunc = async (_request, _response, attempt) => attempt < RETRIES_ON_429;
    const network = Network.from(chainId);
    // batchMaxCount 1: batching adds a stall per call, and the relay's hot path is latency bound.
    // cacheTimeout -1: ethers would otherwise answer repeated reads (block number, nonces) from a
    // 250 ms cache, which hides a nonce just used and delays every receipt poll.
    const label = String(chainId);
    const observe = (method: string, seconds: number, ok: boolean) => {
      this.metrics.rpcRequests.inc({ chain: label, method, result: ok ? 'ok' : 'error' });
      this.metrics.rpcDuration.observe({ chain: label, method }, seconds);
    };
    const provider = new MeteredJsonRpcProvider(observe, request, network, { staticNetwork: network, batchMaxCount: 1, pollingInterval: 250, cacheTimeout: -1 });
    this.providers.set(chainId, provider);
    return provider;
  }

  onModuleDestroy(): void {
    for (const provider of this.providers.values()) provider.destroy();
  }
}
