import { Injectable, Logger } from '@nestjs/common';
import { MetricsService } from '../../../metrics';
import { reactionTo } from '../../core/broadcast-reaction';
import { copyOf } from '../../core/row-copy';
import { FeeSettings, maxGasPrice } from '../../core/fees';
import { RelaySigner } from '../../core/signer-pool.service';
import { broadcastInsertCte } from '../../store/relay-broadcast.store';
import { RelayTransactionEntity } from '../../store/relay-transaction.entity';
import { RelayTransactionStore } from '../../store/relay-transaction.store';
import { KeySlots } from '../keys/key-slots.service';
import { ChainIo } from '../node/chain-io.service';
import { ReceiptTracker } from '../track/receipt-tracker.service';
import { Broadcasted } from './broadcasted';
import { heldBack, Refusals } from './refusals';
import { Repricer } from './repricer.service';
import { BackPressureError, TransientSendError } from './send-errors';
import { Signature, signRow, withSignature } from './signature';

/** A lagging read node shows the higher base fee within about a block. */
const UNDER_BASE_FEE_RETRY_MS = 1_000;

/**
 * Puts a signature just stored for the row on the wire and acts on the node's answer
 * (`core/broadcast-reaction.ts`); signs the row again at its nonce (replacements, re-prices).
 */
@Injectable()
export class Transmit {
  private readonly logger = new Logger(Transmit.name);

  constructor(
    private readonly txs: RelayTransactionStore,
    private readonly chain: ChainIo,
    private readonly slots: KeySlots,
    private readonly tracker: ReceiptTracker,
    private readonly metrics: MetricsService,
    private readonly broadcasted: Broadcasted,
    private readonly refusals: Refusals,
    private readonly repricer: Repricer,
  ) {}

  /** A new signature at the row's nonce, stored as the row's hash and fees, then sent. */
  async signAgain(tx: RelayTransactionEntity, signer: RelaySigner, fees: FeeSettings): Promise<void> {
    const signStarted = Date.now();
    const nonce = tx.nonce as bigint;
    const signed = await signRow(signer, tx, fees, nonce);
    await this.txs.writeReplacement([broadcastInsertCte(tx.id, tx.chainId, signer.address, fees, signed, nonce, false), this.txs.replacedCte(tx.id, signed.hash, fees)]);
    this.metrics.observeStage(tx.chainId, 'sign', signStarted);
    await this.send(tx, signer, { ...signed, nonce, fees, sender: signer.address }, 'replacement');
  }

  /** Broadcasts `sig` (stored for the row just now) and acts on the answer. */
  async send(tx: RelayTransactionEntity, signer: RelaySigner, sig: Signature, job: 'first' | 'replacement'): Promise<void> {
    const row = withSignature(tx, sig, job === 'replacement');
    // Read after the claim, just before the broadcast: the transaction lands in a later block, and a
    // head read before a claim that waited behind the key's other claims sent the tracker back to
    // blocks it had read already.
    if (this.slots.behindRefused(tx.chainId, signer.address, sig.nonce)) throw heldBack(tx.chainId, signer.address, sig.nonce, sig.hash);
    const fromBlock = await this.tracker.headHint(tx.chainId);
    const broadcastStarted = Date.now();
    const sentAt = performance.now();
    const outcome = await this.chain.broadcast(tx.chainId, sig.raw);
    this.metrics.observeStage(tx.chainId, 'broadcast', broadcastStarted);
    const reaction = reactionTo(outcome, job);
    if (reaction.kind === 'sent') {
      this.slots.taken(tx.id);
      return this.broadcasted.signature(copyOf(row, { broadcastAt: new Date() }), sig.hash, fromBlock, sentAt);
    }
    if (reaction.kind === 'reprice') return this.reprice(row, signer, sig.fees);
    return this.refusals.act(reaction, { tx: row, signer, sender: signer.address, nonce: sig.nonce, hash: sig.hash, outcome, what: 'broadcast' });
  }

  /**
   * Under the base fee, this signature is in no pool: the same nonce, priced from fresh fees
   * (`Repricer`), once per attempt; `last` is what the node refused.
   */
  async reprice(tx: RelayTransactionEntity, signer: RelaySigner, last: FeeSettings): Promise<void> {
    const repriced = await this.repricer.repriced(tx, last, false);
    if (!repriced) throw new TransientSendError(`${tx.id} is priced under the base fee and could not be re-priced within its cap now`);
    // Fee reads no fresher than the node that refused (a lagging read node): ask again shortly, no retry spent.
    if (maxGasPrice(repriced) <= maxGasPrice(last)) throw new BackPressureError(`${tx.id} is priced under the base fee; the fee data read does not show it yet`, UNDER_BASE_FEE_RETRY_MS);
    this.logger.log(`re-pricing ${tx.id} (nonce ${tx.nonce}) under the base fee: max fee ${maxGasPrice(last)} → ${maxGasPrice(repriced)}`);
    await this.signAgain(tx, signer, repriced);
  }
}
