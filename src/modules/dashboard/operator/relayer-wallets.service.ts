import { Injectable } from '@nestjs/common';
import { formatUnits } from 'ethers';
import { ChainRegistry } from '../../chains';
import { RegionResolver, SignerPool } from '../../relay';
import { RelayerWalletsService } from '../../relayer-wallets';
import { RelayerWalletDto } from './relayer-wallets.dto';
import { providerErrorCode } from '../../../common/evm/provider-error';

/**
 * Every relayer key of every region on every EVM chain, with its balance read from the chain now
 * (the operator wants the live figure) and the chain's floor from the wallet monitor.
 */
@Injectable()
export class RelayerWallets {
  constructor(
    private readonly signers: SignerPool,
    private readonly regions: RegionResolver,
    private readonly chains: ChainRegistry,
    private readonly wallets: RelayerWalletsService,
  ) {}

  list(): Promise<RelayerWalletDto[]> {
    const chains = this.chains.all().filter((c) => c.enabled && c.rpcUrl);
    const floors = new Map(this.wallets.snapshot().map((w) => [w.chainId, w.floorWei]));
    const regions = new Set(this.regions.regions);
    const rows = this.signers
      .poolKeys()
      .filter((k) => regions.has(k.region))
      .flatMap((key) => chains.map((chain) => ({ key, chain })));
    return Promise.all(
      rows.map(async ({ key: { region, address, signer, state }, chain }): Promise<RelayerWalletDto> => {
        const base = { region, chainId: chain.chainId, chainName: chain.name, address, signer, state, symbol: chain.nativeCurrency.symbol, floorWei: floors.get(chain.chainId) ?? null };
        try {
          const wei = await this.chains.provider(chain.chainId).getBalance(address);
          return { ...base, balanceWei: wei.toString(), balance: formatUnits(wei, chain.nativeCurrency.decimals), error: null };
        } catch (err) {
          return { ...base, balanceWei: null, balance: null, error: providerErrorCode(err) };
        }
      }),
    );
  }
}
