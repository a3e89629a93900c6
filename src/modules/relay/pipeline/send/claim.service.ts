import { Injectable } from '@nestjs/common';
import { MetricsService } from '../../../metrics';
import { FeeSettings } from '../../core/fees';
import { RelaySigner } from '../../core/signer-pool.service';
import { broadcastInsertCte } from '../../store/relay-broadcast.store';
import { RelayTransactionEntity } from '../../store/relay-transaction.entity';
import { RelayTransactionStore } from '../../store/relay-transaction.store';
import { KeySlots } from '../keys/key-slots.service';
import { NonceManager } from '../keys/nonce-manager.service';
import { BackPressureError, PermanentSendError, TransientSendError } from './send-errors';
import { signRow } from './signature';
import { Transmit } from './transmit.service';

/**
 * The first signature of a row: the nonce, the signed bytes and the move accepted → signed in
 * ONE statement, only while the row is accepted (`NonceManager.claimIfOpen`), then the broadcast.
 * The slot the send took for it goes back here when no move was made.
 */
@Injectable()
export class Claim {
  constructor(
    private readonly txs: RelayTransactionStore,
    private readonly nonces: NonceManager,
    private readonly metrics: MetricsService,
    private readonly transmit: Transmit,
    private readonly slots: KeySlots,
  ) {}

  /** False when the row was already signed or finished (nothing was claimed or sent). */
  async signAndSend(tx: RelayTransactionEntity, signer: RelaySigner, fees: FeeSettings): Promise<boolean> {
    let claimed: boolean;
    try {
      claimed = await this.claimAndSend(tx, signer, fees);
    } catch (err) {
      // Unknown whether the claim committed: the slot sweep frees it if the row is not in flight.
      if (!(err instanceof TransientSendError || err instanceof BackPressureError || err instanceof PermanentSendError)) this.slots.release(tx.id);
      throw err;
    }
    // No move: the slot taken for it goes back.
    if (!claimed) this.slots.release(tx.id);
    return claimed;
  }

  private async claimAndSend(tx: RelayTransactionEntity, signer: RelaySigner, fees: FeeSettings): Promise<boolean> {
    const signStarted = Date.now();
    const claimed = await this.nonces.claimIfOpen(
      tx.chainId,
      signer.address,
      (nonce) => signRow(signer, tx, fees, nonce),
      (s, n) => ({
        ctes: [broadcastInsertCte(tx.id, tx.chainId, signer.address, fees, s, n, true), this.txs.signedCte(tx.id, signer.address, n, s.hash)],
        gate: this.txs.claimOpen(tx.id),
      }),
    );
    if (!claimed) return false;
    this.metrics.observeStage(tx.chainId, 'sign', signStarted);
    await this.transmit.send(tx, signer, { ...claimed.signed, nonce: claimed.nonce, fees, sender: signer.address }, 'first');
    return true;
  }
}
