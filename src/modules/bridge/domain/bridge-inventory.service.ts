import { Injectable, Logger } from '@nestjs/common';
import { Contract } from 'ethers';
import { AppConfig } from '../../../config/app-config';
import { ChainDefinition, ChainRegistry } from '../../chains';
import { OperatorAlerts } from '../../relayer-wallets';
import { SPOKE_ABI } from './spoke';

export interface InventoryLine {
  chainId: number;
  spoke: string;
  token: string;
  symbol: string;
  decimals: number;
  /** Token units the spoke can pay out (its balance less the escrowed deposits). */
  available: string;
  low: boolean;
}

/**
 * The filler's inventory: what each chain's spoke holds above its escrowed deposits, read from
 * the chain. Low lines raise the operator alert once per crossing (not on every read).
 */
@Injectable()
export class BridgeInventory {
  private readonly logger = new Logger(BridgeInventory.name);
  private readonly lowNow = new Set<string>();

  constructor(
    private readonly registry: ChainRegistry,
    private readonly config: AppConfig,
    private readonly alerts: OperatorAlerts,
  ) {}

  spokeOf(chainId: number): string | null {
    const chain = this.registry.all().find((c) => c.chainId === chainId);
    return chain?.contracts?.bridgeSpoke?.toLowerCase() ?? null;
  }

  chains(): ChainDefinition[] {
    return this.registry.all().filter((c) => c.enabled && c.rpcUrl && !c.capabilities.exchangeAction && c.contracts?.bridgeSpoke);
  }

  async liquidity(chainId: number, token: string): Promise<bigint> {
    const spoke = this.spokeOf(chainId);
    if (!spoke) return 0n;
    const contract = new Contract(spoke, SPOKE_ABI, this.registry.provider(chainId));
    return BigInt(await contract.liquidity(token));
  }

  /** Every spoke's stablecoin inventory (`GET /admin/bridge`), alerting on low lines. */
  async snapshot(): Promise<InventoryLine[]> {
    const lines: InventoryLine[] = [];
    for (const chain of this.chains()) {
      for (const token of (chain.tokens ?? []).filter((t) => t.usdStable === true)) {
        const available = await this.liquidity(chain.chainId, token.address).catch(() => null);
        if (available === null) continue;
        const low = available < BigInt(this.config.BRIDGE_LOW_INVENTORY_UNITS) * 10n ** BigInt(token.decimals);
        lines.push({ chainId: chain.chainId, spoke: chain.contracts!.bridgeSpoke!.toLowerCase(), token: token.address.toLowerCase(), symbol: token.symbol, decimals: token.decimals, available: available.toString(), low });
        this.alertOnCrossing(lines[lines.length - 1]);
      }
    }
    return lines;
  }

  private alertOnCrossing(line: InventoryLine): void {
    const key = `${line.chainId}:${line.token}`;
    if (line.low && !this.lowNow.has(key)) {
      this.lowNow.add(key);
      this.logger.warn(`bridge inventory of ${line.symbol} on chain ${line.chainId} is low: ${line.available} units`);
      void this.alerts.raise({ kind: 'bridge.low_inventory', chainId: line.chainId, token: line.token, symbol: line.symbol, available: line.available });
    } else if (!line.low) {
      this.lowNow.delete(key);
    }
  }
}
