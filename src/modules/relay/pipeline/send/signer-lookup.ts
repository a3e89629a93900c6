import { Injectable } from '@nestjs/common';
import { AppConfig } from '../../../../config/app-config';
import { RelaySigner, SignerPool } from '../../core/signer-pool.service';
import { RelayTransactionEntity } from '../../store/relay-transaction.entity';
import { KeySlots } from '../keys/key-slots.service';
import { BackPressureError, PermanentSendError } from './send-errors';

/** A send that found every key full waited RELAY_SLOT_WAIT_MS already: queue it again soon. */
const SLOT_RETRY_MS = 250;

/** The key that signs a row: the one place a row's signer is looked up. */
@Injectable()
export class SignerLookup {
  constructor(
    private readonly signers: SignerPool,
    private readonly slots: KeySlots,
    private readonly config: AppConfig,
  ) {}

  /**
   * The key of a row that has one (its derivation path, else its sender's pool key). Throws a
   * permanent send error when the key is gone, unless `optional` (then undefined).
   */
  signerFor(tx: RelayTransactionEntity): RelaySigner;
  signerFor(tx: RelayTransactionEntity, optional: 'optional'): RelaySigner | undefined;
  signerFor(tx: RelayTransactionEntity, optional?: 'optional'): RelaySigner | undefined {
    const signer = this.signers.forRow(tx);
    if (!signer && !optional) throw new PermanentSendError(`no key for sender ${tx.sender}`);
    return signer;
  }

  /**
   * The key for a row's first signature: its derived key, or a key of its pool with room under
   * the in-flight bound (and over its balance floor), waiting for one up to RELAY_SLOT_WAIT_MS.
   */
  async firstSigner(tx: RelayTransactionEntity): Promise<RelaySigner> {
    if (tx.derivationPath) return this.signerFor(tx);
    const signer = await this.slots.acquire(tx.chainId, this.signers.eligiblePool(tx.submitRegion, tx.chainId), tx.id, this.config.RELAY_SLOT_WAIT_MS);
    if (!signer) throw new BackPressureError(`every relayer key of ${tx.submitRegion} on ${tx.chainId} has ${this.config.RELAY_MAX_IN_FLIGHT_PER_KEY} in flight`, SLOT_RETRY_MS);
    return signer;
  }
}
