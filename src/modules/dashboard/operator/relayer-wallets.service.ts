import { Injectable } from '@nestjs/common';
import { formatUnits } from 'ethers';
import { ChainRegistry } from '../../chains';
import { RegionResolver, SignerPool } from '../../relay';
import { RelayerWalletDto } from './relayer-wallets.dto';

/**
 * Every relayer key of every region on every EVM chain, with its balance read from the chain.
 * Kept to this one method so a wallets service that also knows floors and top-ups can replace it.
 */
@Injectable()
export class RelayerWallets {
  constructor(
    private readonly signers: SignerPool,
    private readonly regions: RegionResolver,
    private readonly chains: ChainRegistry,
  ) {}

  list(): Promise<RelayerWalletDto[]> {
    const chains = this.chains.all().filter((c) => c.enabled && c.rpcUrl);
    const rows = this.regions.regions.flatMap((region) =>
      this.signers.poolAddresses(region).flatMap((address) => chains.map((chain) => ({ region, chain, address }))),
    );
    return Promise.all(
      rows.map(async ({ region, chain, address }): Promise<RelayerWalletDto> => {
        const base = { region, chainId: chain.chainId, chainName: chain.name, address, symbol: chain.nativeCurrency.symbol, floorWei: null };
        try {
          const wei = await this.chains.provider(chain.chainId).getBalance(address);
          return { ...base, balanceWei: wei.toString(), balance: formatUnits(wei, chain.nativeCurrency.decimals), error: null };
        } catch (err) {
          return { ...base, balanceWei: null, balance: null, error: err instanceof Error ? err.message.slice(0, 200) : String(err) };
        }
      }),
    );
  }
}
