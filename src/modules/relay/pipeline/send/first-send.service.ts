import { Injectable } from '@nestjs/common';
import { feesOf } from '../../core/signed-request';
import { IN_FLIGHT } from '../../core/stage';
import { RelayBroadcastStore } from '../../store/relay-broadcast.store';
import { RelayTransactionEntity } from '../../store/relay-transaction.entity';
import { RelayTransactionStore } from '../../store/relay-transaction.store';
import { SettlementService } from '../settle/settlement.service';
import { Claim } from './claim.service';
import { DerivedFunding } from './derived-funding.service';
import { GasPriceHold } from './gas-price-hold';
import { Resend } from './resend.service';
import { SignerLookup } from './signer-lookup';

/**
 * A send job: the first signature of an accepted row (accepted → signed → broadcast), or, when
 * the row has signed bytes already (a retry, a crash after the claim), those bytes again
 * (`Resend`). The nonce is claimed by the statement that stores the signed bytes, so a crash
 * after it leaves a transaction the next attempt rebroadcasts byte for byte, never a second
 * signature.
 */
@Injectable()
export class FirstSend {
  constructor(
    private readonly txs: RelayTransactionStore,
    private readonly broadcastRows: RelayBroadcastStore,
    private readonly keys: SignerLookup,
    private readonly funding: DerivedFunding,
    private readonly gasHold: GasPriceHold,
    private readonly settlement: SettlementService,
    private readonly claim: Claim,
    private readonly resend: Resend,
  ) {}

  /**
   * `submitted` is the row as the submission wrote it (the first send job carries it): a pool
   * key's first send then reads nothing, and the claim's gate (still accepted) makes a stale
   * copy harmless. Derived senders are topped up before signing, so they read the row.
   */
  async send(txId: string, submitted?: RelayTransactionEntity): Promise<void> {
    const tx = submitted && submitted.id === txId && !submitted.derivationPath ? submitted : await this.txs.findById(txId);
    if (!tx || !IN_FLIGHT.includes(tx.stage)) return;
    // A row gets its nonce and its first broadcast row in the same commit as its move out of
    // accepted, so an accepted row has nothing to look up; user-signed rows are written signed.
    const previous = tx.stage === 'accepted' ? [] : await this.broadcastRows.forTx(txId);
    // A retry or a recovery after a crash: the signed bytes exist, send them again.
    if (previous.length > 0) return this.resend.resend(tx, previous);
    // Cancelled or past its deadline before it got a nonce: nothing was sent, nothing to replace.
    const ended = tx.cancelReason ?? (tx.validUntil && tx.validUntil.getTime() <= Date.now() ? 'expired' : null);
    if (ended) {
      await this.settlement.failUnsent(txId, ended === 'expired' ? 'validUntil passed before it was sent' : 'cancelled before it was sent', ended, ['accepted']);
      return;
    }
    // Before a key slot or a nonce is taken: a held transaction blocks nothing.
    await this.gasHold.check(tx);
    const signer = await this.keys.firstSigner(tx);
    if (tx.derivationPath) await this.funding.fund(tx, signer);
    const sent = await this.claim.signAndSend(tx, signer, feesOf(tx));
    // Already signed (or finished) by an earlier run of this job: carry on from the row as it is.
    if (!sent && tx === submitted) await this.send(txId);
  }
}
