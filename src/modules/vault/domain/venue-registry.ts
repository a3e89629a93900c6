import { Injectable } from '@nestjs/common';
import { ChainRegistry } from '../../chains';
import type { VenueDef } from '../../chains';

export interface Venue {
  chainId: number;
  venueId: string;
  /** Lowercase. */
  vault: string;
  asset: string;
  riskScore: number;
  feeBps: number;
}

/** The venues of the chains file (`venues` of each chain), addresses lowercased once here. */
@Injectable()
export class VenueRegistry {
  constructor(private readonly chains: ChainRegistry) {}

  all(): Venue[] {
    return this.chains.all().filter((c) => c.enabled).flatMap((c) => (c.venues ?? []).map((v) => toVenue(c.chainId, v)));
  }

  forAsset(chainId: number, asset: string): Venue[] {
    return this.all().filter((v) => v.chainId === chainId && v.asset === asset);
  }

  byVault(chainId: number, vault: string): Venue | undefined {
    return this.all().find((v) => v.chainId === chainId && v.vault === vault);
  }
}

function toVenue(chainId: number, v: VenueDef): Venue {
  return { chainId, venueId: v.venueId, vault: v.vault.toLowerCase(), asset: v.asset.toLowerCase(), riskScore: v.riskScore, feeBps: v.feeBps };
}
