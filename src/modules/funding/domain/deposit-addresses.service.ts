import { Injectable } from '@nestjs/common';
import { AppError } from '../../../common/errors/app-error';
import { AppConfig } from '../../../config/app-config';
import { SignerPool } from '../../relay';
import { DepositAddressStore } from '../store/deposit-address.store';
import { DepositKeys } from './deposit-keys';
import { treasuryWallet } from './treasury-wallet';

/**
 * Each account's deposit address: derived (DepositKeys), recorded the first time it is handed
 * out, and from then on watched on every chain. The service keys an address must never be are
 * checked here once more, although the derivation already makes that a 2^-160 event.
 */
@Injectable()
export class DepositAddresses {
  readonly keys: DepositKeys;
  private readonly serviceKeys = new Set<string>();

  constructor(
    config: AppConfig,
    signers: SignerPool,
    private readonly store: DepositAddressStore,
  ) {
    this.keys = new DepositKeys(config.AUTH_MNEMONIC);
    for (const address of signers.poolAddresses()) this.serviceKeys.add(address.toLowerCase());
    const treasury = treasuryWallet(config);
    if (treasury) this.serviceKeys.add(treasury.address.toLowerCase());
  }

  /** The account's address, recorded (idempotently) so the watcher follows it. */
  async forAccount(userId: string): Promise<string> {
    const known = await this.store.find(userId);
    if (known) return known;
    const address = this.keys.address(userId);
    if (this.serviceKeys.has(address)) throw new AppError('SYSTEM_002', 'deposit address collides with a service key');
    await this.store.record(userId, address);
    return address;
  }
}
