import { Injectable, Logger } from '@nestjs/common';
import { FeeSettings, maxGasPrice } from '../../core/fees';
import { recordedFees } from '../../core/signed-request';
import { SENT } from '../../core/stage';
import { RelayBroadcastStore } from '../../store/relay-broadcast.store';
import { RelayTransactionStore } from '../../store/relay-transaction.store';
import { Cancellation } from './cancellation.service';
import { Refusals } from './refusals';
import { Repricer } from './repricer.service';
import { Resend } from './resend.service';
import { SignerLookup } from './signer-lookup';
import { Transmit } from './transmit.service';

/**
 * A sent row signed again at its nonce: fees bumped past both the last attempt and the current
 * market, within the cap (`Repricer`), or `requested` (a client's speed-up, checked by the API).
 * A row with a cancel reason gets a cancellation instead of its call: whichever of the two is
 * mined decides. Nothing is signed when the chain already consumed the nonce: then only
 * `NonceFate` may decide what happened.
 */
@Injectable()
export class Replacement {
  private readonly logger = new Logger(Replacement.name);

  constructor(
    private readonly txs: RelayTransactionStore,
    private readonly broadcastRows: RelayBroadcastStore,
    private readonly keys: SignerLookup,
    private readonly repricer: Repricer,
    private readonly transmit: Transmit,
    private readonly refusals: Refusals,
    private readonly resend: Resend,
    private readonly cancellation: Cancellation,
  ) {}

  /** False when the row cannot be signed again (user-signed): then it is sent as it is (`FirstSend.send`). */
  async replace(txId: string, requested?: FeeSettings): Promise<boolean> {
    const tx = await this.txs.findById(txId);
    if (!tx || !SENT.includes(tx.stage)) return true;
    const previous = await this.broadcastRows.forTx(txId);
    const last = previous.at(-1);
    // A user-signed transaction cannot be re-signed: keep sending the same bytes.
    if (!last || tx.transactionType === 'funding-signed') return false;
    if (await this.refusals.decided(tx, previous)) return true;
    const signer = this.keys.signerFor(tx);
    const fees = requested ?? (await this.repricer.repriced(tx, recordedFees(last), true));
    // A client's speed-up was reserved by the API; at today's price it may need a little more. Never signed unreserved.
    if (!fees || (requested && !(await this.repricer.reserved(tx, requested)))) {
      // It keeps its fees: its last bytes go out again, in case a node dropped them (a node that
      // refuses them as under the base fee spends one of the account's retries).
      this.logger.warn(`not replacing ${txId} (nonce ${tx.nonce}): the fee cap or the account's reservation allows no valid replacement; it waits at its price`);
      await this.resend.resend(tx, previous);
      return true;
    }
    if (tx.cancelReason) await this.cancellation.cancel(tx, signer, fees);
    else {
      this.logger.log(`replacing ${txId} (nonce ${tx.nonce}) with max fee ${maxGasPrice(fees)}`);
      await this.transmit.signAgain(tx, signer, fees);
    }
    return true;
  }
}
