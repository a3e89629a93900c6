import { Injectable } from '@nestjs/common';
import { AppError } from '../../../common/errors/app-error';
import { normalizeAddress } from '../../../common/evm/address';
import { ChainRegistry } from '../../chains';
import { VaultReader } from '../domain/vault-reader.service';
import { VenueRegistry } from '../domain/venue-registry';
import { VaultPositionStore } from '../store/vault-position.store';
import { PositionDto } from './positions.dto';
import { ProviderCallError } from '../../../common/evm/provider-error';

/** Recorded positions of an EOA (non-zero shares), each valued now with the vault's previewRedeem. */
@Injectable()
export class PositionValuesService {
  constructor(
    private readonly positions: VaultPositionStore,
    private readonly venues: VenueRegistry,
    private readonly reader: VaultReader,
    private readonly chains: ChainRegistry,
  ) {}

  async list(userAddress: string, chain?: number): Promise<PositionDto[]> {
    const user = normalizeAddress(userAddress);
    if (!user) throw new AppError('USER_003', 'userAddress is not an address');
    if (chain !== undefined) this.chains.get(chain);
    const rows = await this.positions.listHeld(user, chain);
    return Promise.all(rows.map((row) => this.value(row)));
  }

  private async value(row: { chainId: number; vault: string; venueId: string; asset: string; shares: string; costBasis: string }): Promise<PositionDto> {
    const venue = this.venues.byVault(row.chainId, row.vault);
    const shares = BigInt(row.shares);
    let assets: bigint;
    try {
      // A venue removed from the chains file can no longer be priced by us: its cost basis stands in.
      assets = venue ? await this.reader.previewRedeem(venue, shares) : BigInt(row.costBasis);
    } catch (err) {
      throw new ProviderCallError(`vault ${row.vault} could not be valued`, err);
    }
    const costBasis = BigInt(row.costBasis);
    return {
      chain: row.chainId,
      vault: row.vault,
      venueId: row.venueId,
      asset: row.asset,
      shares: row.shares,
      assets: assets.toString(),
      costBasis: row.costBasis,
      pnl: (assets - costBasis).toString(),
    };
  }
}
