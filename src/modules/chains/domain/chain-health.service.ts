import { Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { AppConfig } from '../../../config/app-config';
import { ChainRegistry } from './chain-registry.service';
import { ProviderHealth } from './rpc/rpc-pool';

export interface ChainHealth {
  chainId: number;
  healthy: boolean;
  blockNumber: number | null;
  latencyMs: number | null;
  /** A short code (`timeout`, `http 429`, `connection refused`, `wrong chain id`...), never the provider's text. */
  error: string | null;
  checkedAt: string | null;
  /** Each provider of the chain (URLs redacted); empty for exchange-action chains. */
  providers: ProviderHealth[];
}

/**
 * Probes every enabled chain on an interval, through its provider pool: a chain is healthy while
 * one of its providers answers with the configured chain id; with none, it is left out of
 * /api/supported-chains until one recovers (accepted transactions wait, nothing fails for it).
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
      .map((c) => {
        const known = this.state.get(c.chainId) ?? { chainId: c.chainId, healthy: false, blockNumber: null, latencyMs: null, error: 'not checked yet', checkedAt: null, providers: [] };
        // Providers as of now (their state changes with every call, not only with the probe).
        return c.rpcUrl ? { ...known, providers: this.registry.pool(c.chainId).snapshot() } : known;
      });
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
      result = { chainId, healthy: true, blockNumber: null, latencyMs: null, error: null, checkedAt: new Date().toISOString(), providers: [] };
    } else {
      const probe = await this.registry.pool(chainId).probe();
      if (probe.ok) {
        result = { chainId, healthy: true, blockNumber: probe.blockNumber, latencyMs: Date.now() - started, error: null, checkedAt: new Date().toISOString(), providers: [] };
      } else {
        detail = probe.reason ?? 'no provider';
        result = { chainId, healthy: false, blockNumber: null, latencyMs: null, error: probe.reason, checkedAt: new Date().toISOString(), providers: [] };
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
