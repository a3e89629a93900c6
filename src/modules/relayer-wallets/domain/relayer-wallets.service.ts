import { Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { runDetached } from '../../../common/trace/tracing';
import { AppConfig } from '../../../config/app-config';
import { ChainHealthService, ChainRegistry } from '../../chains';
import { MetricsService } from '../../metrics';
import { KeyEligibility, SignerPool, WalletState } from '../../relay';
import { Floors, floorsFor, walletState } from './floors';
import { OperatorAlerts } from './operator-alerts.service';
import { TreasuryTopUps } from './treasury-top-ups.service';

export interface RelayerKeyView {
  region: string;
  address: string;
  /** null until the first read answered. */
  balanceWei: string | null;
  state: WalletState | 'unknown';
  checkedAt: string | null;
}

export interface ChainWalletsView {
  chainId: number;
  floorWei: string;
  targetWei: string;
  treasury: { address: string; balanceWei: string | null } | null;
  keys: RelayerKeyView[];
}

/**
 * Reads every relayer key's balance per chain on an in-process timer (no Redis involved),
 * publishes it (gauges, /health, `snapshot()` for operator views), marks keys under their floor
 * so they get no new work (KeyEligibility), alerts on the move to low, and in worker roles has
 * the treasury top them up. A node's out-of-funds refusal wakes a pass at once.
 */
@Injectable()
export class RelayerWalletsService implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(RelayerWalletsService.name);
  private readonly floors = new Map<number, Floors>();
  private readonly keys = new Map<string, RelayerKeyView>();
  private readonly treasuryBalances = new Map<number, bigint | null>();
  private timer?: NodeJS.Timeout;
  private running: Promise<void> | null = null;
  private again = false;
  private stopped = false;

  constructor(
    private readonly config: AppConfig,
    private readonly chains: ChainRegistry,
    private readonly health: ChainHealthService,
    private readonly signers: SignerPool,
    private readonly eligibility: KeyEligibility,
    private readonly topUps: TreasuryTopUps,
    private readonly alerts: OperatorAlerts,
    private readonly metrics: MetricsService,
  ) {}

  onApplicationBootstrap(): void {
    for (const chain of this.evmChains()) {
      const floors = floorsFor(chain, this.config);
      if (floors.targetWei <= floors.floorWei) throw new Error(`chain ${chain.chainId}: relayerTargetBalanceWei must be above the floor`);
      this.floors.set(chain.chainId, floors);
    }
    this.eligibility.onStarved(() => this.wake());
    this.timer = setInterval(() => this.wake(), this.config.RELAYER_BALANCE_INTERVAL_MS);
    this.timer.unref();
    this.wake();
  }

  onApplicationShutdown(): void {
    this.stopped = true;
    clearInterval(this.timer);
  }

  /** Per chain: floor, target, treasury and every pool key with its last balance and state. */
  snapshot(): ChainWalletsView[] {
    return [...this.floors.entries()].map(([chainId, floors]) => {
      const treasuryBalance = this.treasuryBalances.get(chainId);
      return {
        chainId,
        floorWei: floors.floorWei.toString(),
        targetWei: floors.targetWei.toString(),
        treasury: this.topUps.address ? { address: this.topUps.address, balanceWei: treasuryBalance == null ? null : treasuryBalance.toString() } : null,
        keys: this.signers.poolKeys().map(({ region, address }) => this.keys.get(keyOf(chainId, address)) ?? { region, address, balanceWei: null, state: 'unknown', checkedAt: null }),
      };
    });
  }

  /** Runs a pass now, or once more right after the current one. */
  wake(): Promise<void> {
    if (this.stopped) return Promise.resolve();
    if (this.running) {
      this.again = true;
      return this.running;
    }
    this.running = runDetached(`relayer-wallets-${Date.now()}`, async () => {
      do {
        this.again = false;
        await this.pass();
      } while (this.again && !this.stopped);
    }).finally(() => {
      this.running = null;
    });
    return this.running;
  }

  private async pass(): Promise<void> {
    await Promise.all(
      this.evmChains()
        .filter((c) => this.health.isHealthy(c.chainId))
        .map((c) => this.passChain(c.chainId).catch((err: Error) => this.logger.warn(`relayer balances on ${c.chainId}: ${err.message.split('\n')[0]}`))),
    );
  }

  private async passChain(chainId: number): Promise<void> {
    const floors = this.floors.get(chainId);
    if (!floors) return;
    const provider = this.chains.provider(chainId);
    const keys = this.signers.poolKeys();
    // One read per key, all at once: a pool is a handful of keys.
    const balances = await Promise.all(keys.map((k) => provider.getBalance(k.address)));
    const sendsTopUps = this.config.APP_ROLE !== 'api';
    let low = 0;
    for (const [i, { region, address }] of keys.entries()) {
      const balanceWei = balances[i];
      const state = walletState(balanceWei, floors.floorWei);
      const before = this.keys.get(keyOf(chainId, address))?.state;
      this.keys.set(keyOf(chainId, address), { region, address, balanceWei: balanceWei.toString(), state, checkedAt: new Date().toISOString() });
      this.eligibility.set(chainId, address, state);
      this.metrics.relayerBalance.set({ chain: String(chainId), region, address }, Number(balanceWei));
      if (state === 'ok') continue;
      low++;
      if (before !== state && before !== 'empty') {
        await this.alerts.raise({ kind: 'relayer.low_balance', chainId, region, address, balanceWei: balanceWei.toString(), floorWei: floors.floorWei.toString(), detail: state });
      }
      // A draining or retired key is being emptied into the treasury: never refilled.
      if (sendsTopUps && this.signers.stateOf(address) === 'active') await this.topUps.topUp(chainId, region, address, balanceWei, floors);
    }
    this.metrics.relayerLowKeys.set({ chain: String(chainId) }, low);
    if (sendsTopUps) await this.topUps.track(chainId);
    this.treasuryBalances.set(chainId, await this.topUps.treasuryBalance(chainId));
  }

  private evmChains() {
    return this.chains.all().filter((c) => c.enabled && c.rpcUrl && !c.capabilities.exchangeAction);
  }
}

const keyOf = (chainId: number, address: string) => `${chainId}:${address.toLowerCase()}`;
