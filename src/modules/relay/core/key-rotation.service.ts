import { Injectable } from '@nestjs/common';
import { AppError } from '../../../common/errors/app-error';
import { RelayerKeyState, RelayerKeyStore } from '../store/relayer-key.store';
import { SignerPool } from './signer-pool.service';

export interface RelayerKeyView {
  region: string;
  address: string;
  signer: 'local' | 'pkcs11';
  state: RelayerKeyState;
}

/**
 * Live rotation of relayer keys (admin REST and CLI): `retire` stops new work at once in every
 * process (each reads the states every second) and hands the key to the retirement sweep
 * (KeyRetirement, worker roles), which waits for its in-flight transactions, sends its balance
 * on every chain to the treasury and marks it `retired`; `activate` brings a draining or retired
 * key back. RESOURCE_001 for an address that is not a relayer key.
 */
@Injectable()
export class KeyRotation {
  constructor(
    private readonly signers: SignerPool,
    private readonly store: RelayerKeyStore,
  ) {}

  async list(): Promise<RelayerKeyView[]> {
    await this.signers.readStates();
    return this.signers.poolKeys().map((k) => ({ region: k.region, address: k.address, signer: k.signer, state: k.state }));
  }

  /** active → draining (draining or retired: unchanged). */
  retire(address: string): Promise<RelayerKeyView> {
    return this.move(address, ['active'], 'draining');
  }

  /** draining or retired → active (active: unchanged). */
  activate(address: string): Promise<RelayerKeyView> {
    return this.move(address, ['draining', 'retired'], 'active');
  }

  private async move(address: string, from: RelayerKeyState[], to: RelayerKeyState): Promise<RelayerKeyView> {
    // A key generated in the token a moment ago is found without waiting for the next rescan.
    if (!this.signers.byAddress(address)) await this.signers.rescan();
    if (!this.signers.byAddress(address)) throw new AppError('RESOURCE_001', `${address} is not a relayer key`);
    await this.store.transition(address, from, to);
    await this.signers.readStates();
    const view = (await this.list()).find((k) => k.address.toLowerCase() === address.toLowerCase());
    return view!;
  }
}
