import { Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { providerErrorCode, providerErrorDetail } from '../../../common/evm/provider-error';
import { AppConfig } from '../../../config/app-config';
import { ChainRegistry } from './chain-registry.service';

export interface ChainHealth {
  chainId: number;
  healthy: boolean;
  blockNumber: number | null;
  latencyMs: number | null;
  /** A short code (`timeout`, `http 429`, `connection refused`, `wrong chain id`...), never the provider's text. */
  error: string | null;
  checkedAt: string | null;
}

class WrongChainError extends Error {}

/**
 * Probes every enabled chain on an interval. A chain whose RPC does not answer with the
 * configured chain id is unhealthy and is left out of /api/supported-chains until it recovers.
 */
@Injectable()
export class ChainHealthService implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger(ChainHealthService.name);
  private readonly state = new Map<number, ChainHealth>();
  private timer?: NodeJS.Timeout;

  constructor(
    private readonly registry: ChainRegistry,
    private readonly config: AppConfig,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    await this.checkAll();
    this.timer = setInterval(() => void this.checkAll(), this.config.CHAIN_HEALTH_INTERVAL_MS);
    this.timer.unref();
  }

  onModuleDestroy(): void {
    clearInterval(this.timer);
  }

  isHealthy(chainId: number): boolean {
    return this.state.get(chainId)?.healthy ?? false;
  }

  snapshot(): ChainHealth[] {
    return this.registry
      .all()
      .filter((c) => c.enabled)
      .map((c) => this.state.get(c.chainId) ?? { chainId: c.chainId, healthy: false, blockNumber: null, latencyMs: null, error: 'not checked yet', checkedAt: null });
  }

  async checkAll(): Promise<ChainHealth[]> {
    const chains = this.registry.all().filter((c) => c.enabled);
    return Promise.all(chains.map((c) => this.check(c.chainId)));
  }

  private async check(chainId: number): Promise<ChainHealth> {
    const chain = this.registry.get(chainId);
    const started = Date.now();
    let result: ChainHealth;
    let detail = '';
    if (!chain.rpcUrl) {
      // Exchange-action chains are probed by the relay's exchange client; configured means usable.
      result = { chainId, healthy: true, blockNumber: null, latencyMs: null, error: null, checkedAt: new Date().toISOString() };
    } else {
      try {
        const provider = this.registry.provider(chainId);
        const [remoteChainId, blockNumber] = await Promise.all([provider.send('eth_chainId', []), provider.getBlockNumber()]);
        if (Number(remoteChainId) !== chainId) throw new WrongChainError(`RPC reports chain ${Number(remoteChainId)}`);
        result = { chainId, healthy: true, blockNumber, latencyMs: Date.now() - started, error: null, checkedAt: new Date().toISOString() };
      } catch (err) {
        const wrongChain = err instanceof WrongChainError;
        detail = wrongChain ? err.message : providerErrorDetail(err);
        result = { chainId, healthy: false, blockNumber: null, latencyMs: null, error: wrongChain ? 'wrong chain id' : providerErrorCode(err), checkedAt: new Date().toISOString() };
      }
    }
    const previous = this.state.get(chainId);
    if (previous && previous.healthy !== result.healthy) {
      this.logger.warn(`chain ${chainId} is now ${result.healthy ? 'healthy' : `unhealthy: ${detail}`}`);
    } else if (!previous && !result.healthy) {
      this.logger.warn(`chain ${chainId} is unhealthy: ${detail}`);
    }
    this.state.set(chainId, result);
    return result;
  }
}
