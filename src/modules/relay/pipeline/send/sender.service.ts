import { Injectable, Logger } from '@nestjs/common';
import { keccak256 } from 'ethers';
import { AppConfig } from '../../../../config/app-config';
import { notificationFor, TxStatusPublisher } from '../../../tx-events';
import { AccountsService } from '../../../accounts';
import { MetricsService } from '../../../metrics';
import { FeeSettings, maxGasPrice } from '../../core/fees';
import { CANCEL_GAS } from '../../core/fee-raise';
import { feeCap, repricedFees } from '../../core/repricing';
import { RelaySigner, SignerPool } from '../../core/signer-pool.service';
import { feesOf, recordedFees, signedRequest, txFees } from '../../core/signed-request';
import { RelayBroadcastEntity } from '../../store/relay-broadcast.entity';
import { broadcastInsertCte, RelayBroadcastStore, SignedTx } from '../../store/relay-broadcast.store';
import { RelayTransactionEntity } from '../../store/relay-transaction.entity';
import { RelayTransactionStore } from '../../store/relay-transaction.store';
import { BroadcastMarks } from './broadcast-marks';
import { ChainIo } from '../node/chain-io.service';
import { DerivedFunding } from './derived-funding.service';
import { MinedCheck } from '../track/mined-check';
import { NonceFiller } from '../keys/nonce-filler';
import { NonceManager } from '../keys/nonce-manager.service';
import { ReceiptTracker } from '../track/receipt-tracker.service';
import { BroadcastOutcome } from '../node/broadcast-error';
import { NonceFate } from '../keys/nonce-fate';
import { KeySlots } from '../keys/key-slots.service';
import { BackPressureError, PermanentSendError, TransientSendError } from './send-errors';
import { FeeRaise } from './fee-raise.service';
import { GasPriceHold } from './gas-price-hold';
import { SettlementService } from '../settle/settlement.service';

function feeColumns(fees: FeeSettings): Partial<RelayTransactionEntity> {
  return fees.type === 'legacy' ? { gasPrice: fees.gasPrice.toString() } : { maxFeePerGas: fees.maxFeePerGas.toString(), maxPriorityFeePerGas: fees.maxPriorityFeePerGas.toString() };
}

/** A send that found every key full waited RELAY_SLOT_WAIT_MS already: queue it again soon. */
const SLOT_RETRY_MS = 250;
/** About a block on most chains: a full pool has room again once a block took some of it. */
const POOL_FULL_RETRY_MS = 1_000;
/** A lagging read node shows the higher base fee within about a block. */
const UNDER_BASE_FEE_RETRY_MS = 1_000;

/**
 * Signs and broadcasts relayed transactions: the first send (accepted → signed → broadcast),
 * a rebroadcast of the stored bytes after a retry or a crash, and a fee-bumped replacement at
 * the same nonce. The nonce is claimed by the statement that stores the signed bytes, so a
 * crash after it leaves a transaction the next attempt rebroadcasts byte for byte, never a
 * second signature.
 */
@Injectable()
export class SenderService {
  private readonly logger = new Logger(SenderService.name);

  constructor(
    private readonly txs: RelayTransactionStore,
    private readonly broadcastRows: RelayBroadcastStore,
    private readonly chain: ChainIo,
    private readonly signers: SignerPool,
    private readonly nonces: NonceManager,
    private readonly tracker: ReceiptTracker,
    private readonly mined: MinedCheck,
    private readonly publisher: TxStatusPublisher,
    private readonly config: AppConfig,
    private readonly funding: DerivedFunding,
    private readonly filler: NonceFiller,
    private readonly marks: BroadcastMarks,
    private readonly fate: NonceFate,
    private readonly accounts: AccountsService,
    private readonly settlement: SettlementService,
    private readonly metrics: MetricsService,
    private readonly slots: KeySlots,
    private readonly feeRaise: FeeRaise,
    private readonly gasHold: GasPriceHold,
  ) {}

  /**
   * `submitted` is the row as the submission wrote it (the first send job carries it): a pool
   * key's first send then reads nothing, and the claim's gate (still accepted) makes a stale
   * copy harmless. Derived senders are topped up before signing, so they read the row.
   */
  async send(txId: string, submitted?: RelayTransactionEntity): Promise<void> {
    const tx = submitted && submitted.id === txId && !submitted.derivationPath ? submitted : await this.txs.findById(txId);
    if (!tx || tx.status !== 'PENDING') return;
    // A relayer-signed row gets its nonce in the same commit as its first broadcast row, so
    // without a nonce there is nothing to look up; user-signed rows come with their broadcast.
    const previous = tx.nonce === null && tx.transactionType !== 'funding-signed' ? [] : await this.broadcastRows.forTx(txId);
    if (previous.length > 0) {
      // A retry or a recovery after a crash: the signed bytes exist, send them again.
      await this.rebroadcast(tx, previous);
      return;
    }
    // Cancelled or past its deadline before it got a nonce: nothing was sent, nothing to replace.
    const ended = tx.cancelReason ?? (tx.validUntil && tx.validUntil.getTime() <= Date.now() ? 'expired' : null);
    if (ended) {
      await this.settlement.failUnsent(txId, ended === 'expired' ? 'validUntil passed before it was sent' : 'cancelled before it was sent', ended, ['accepted']);
      return;
    }
    // Before a key slot or a nonce is taken: a held transaction blocks nothing.
    await this.gasHold.check(tx);
    const signer = tx.derivationPath ? this.signers.forRow(tx) : await this.poolKey(tx);
    if (!signer) throw new PermanentSendError(`no key for sender ${tx.sender}`);
    if (tx.derivationPath) await this.funding.fund(tx, signer);
    let sent: boolean;
    try {
      sent = await this.signAndBroadcast(tx, signer, feesOf(tx), null);
    } catch (err) {
      // Unknown whether the claim committed: the slot sweep frees it if the row is not in flight.
      if (!(err instanceof TransientSendError || err instanceof BackPressureError || err instanceof PermanentSendError)) this.slots.release(tx.id);
      throw err;
    }
    if (!sent) this.slots.release(tx.id);
    // Already signed (or finished) by an earlier run of this job: carry on from the row as it is.
    if (!sent && tx === submitted) await this.send(txId);
  }

  /** A key of the row's pool with room under the in-flight bound (and over its balance floor), waiting for one up to RELAY_SLOT_WAIT_MS. */
  private async poolKey(tx: RelayTransactionEntity): Promise<RelaySigner> {
    const signer = await this.slots.acquire(tx.chainId, this.signers.eligiblePool(tx.submitRegion, tx.chainId), tx.id, this.config.RELAY_SLOT_WAIT_MS);
    if (!signer) throw new BackPressureError(`every relayer key of ${tx.submitRegion} on ${tx.chainId} has ${this.config.RELAY_MAX_IN_FLIGHT_PER_KEY} in flight`, SLOT_RETRY_MS);
    return signer;
  }

  /**
   * Same nonce, fees bumped past both the last attempt and the current market, within the cap
   * (`repricing.ts`), or `requested` (a client's speed-up, checked by the API). A row with a
   * cancel reason gets a cancellation instead of its call: whichever of the two is mined decides.
   * Nothing is signed when the chain already consumed the nonce: then only `NonceFate` may
   * decide what happened.
   */
  async replace(txId: string, requested?: FeeSettings): Promise<void> {
    const tx = await this.txs.findById(txId);
    if (!tx || tx.status !== 'PENDING' || tx.nonce === null || !tx.sender) return;
    const previous = await this.broadcastRows.forTx(txId);
    const last = previous.at(-1);
    // A user-signed transaction cannot be re-signed: keep sending the same bytes.
    if (!last || tx.transactionType === 'funding-signed') return this.send(txId);
    const verdict = await this.fate.decide(tx, previous);
    if (verdict !== 'open') return this.afterVerdict(tx, previous, verdict);
    const signer = this.signers.forRow(tx);
    if (!signer) throw new PermanentSendError(`no key for sender ${tx.sender}`);
    const fees = requested ?? (await this.repriced(tx, recordedFees(last), true));
    // A client's speed-up was reserved by the API; at today's price it may need a little more. Never signed unreserved.
    if (!fees || (requested && !(await this.reserved(tx, requested)))) {
      // It keeps its fees: its last bytes go out again, in case a node dropped them (a node that
      // refuses them as under the base fee spends one of the account's retries).
      this.logger.warn(`not replacing ${txId} (nonce ${tx.nonce}): the fee cap or the account's reservation allows no valid replacement; it waits at its price`);
      return this.rebroadcast(tx, previous);
    }
    if (tx.cancelReason) return this.cancel(tx, signer, fees);
    this.logger.log(`replacing ${txId} (nonce ${tx.nonce}) with max fee ${maxGasPrice(fees)}`);
    await this.signAndBroadcast(tx, signer, fees, tx.nonce);
  }

  /**
   * A 0-value transfer to the sender itself at the row's nonce: once mined, the call can never
   * be. The row's hash stays its call's; the cancellation is a broadcast of kind `cancel`, which
   * settlement recognises (FAILED with the cancel reason, its gas charged). A refusal is read
   * like any other signature's: only NonceFate may decide the nonce is gone.
   */
  private async cancel(tx: RelayTransactionEntity, signer: RelaySigner, fees: FeeSettings): Promise<void> {
    const nonce = tx.nonce as bigint;
    const fromBlock = await this.tracker.headHint(tx.chainId);
    const raw = await signer.signTransaction({ ...txFees(fees), chainId: tx.chainId, nonce: Number(nonce), to: signer.address, value: 0n, data: '0x', gasLimit: CANCEL_GAS });
    const hash = keccak256(raw);
    this.logger.log(`cancelling ${tx.id} (${tx.cancelReason}, nonce ${nonce}) with ${hash}, max fee ${maxGasPrice(fees)}`);
    await this.txs.writeReplacement([broadcastInsertCte(tx.id, tx.chainId, signer.address, fees, { raw, hash }, nonce, false, 'cancel')]);
    const outcome = await this.chain.broadcast(tx.chainId, raw);
    if (outcome === 'sent') {
      this.tracker.track(tx.chainId, tx.id, hash, fromBlock + 1, tx);
      this.marks.accepted(hash);
      return;
    }
    if (outcome === 'nonce-used') {
      // The call or an earlier cancellation may have been mined first: it decides.
      const previous = await this.broadcastRows.forTx(tx.id);
      return this.afterVerdict(tx, previous, await this.fate.decide(tx, previous));
    }
    if (outcome === 'replacement-underpriced') return this.watch(tx);
    if (outcome === 'busy') throw this.poolFull(tx.chainId, signer.address, tx.id, nonce, hash);
    throw new TransientSendError(`cancellation ${hash} of ${tx.id} was not accepted (${outcome})`);
  }

  /**
   * Fresh fees for signing the row again at its nonce, capped and reserved; null when the cap
   * allows none or the account cannot reserve their worst case (then the row keeps its fees).
   */
  private async repriced(tx: RelayTransactionEntity, last: FeeSettings, replacing: boolean): Promise<FeeSettings | null> {
    const fees = await this.cappedFees(tx, last, replacing);
    return fees && (await this.reserved(tx, fees)) ? fees : null;
  }

  /** Whether the row's reservation covers signing it at `fees` now (raised when the account allows it). */
  private async reserved(tx: RelayTransactionEntity, fees: FeeSettings): Promise<boolean> {
    const raised = await this.feeRaise.reserve(tx, fees, tx.cancelReason ? 'cancel' : 'call');
    if (raised.ok) return true;
    this.logger.warn(`not signing ${tx.id} (nonce ${tx.nonce}) again at max fee ${maxGasPrice(fees)}: ${raised.error.code} ${raised.error.message}; it keeps its fees`);
    return false;
  }

  /** Fresh fees within the cap (RELAY_MAX_FEE_MULTIPLE × the accepted max fee, the per-tx limit); null when the cap allows none. */
  private async cappedFees(tx: RelayTransactionEntity, last: FeeSettings, replacing: boolean): Promise<FeeSettings | null> {
    const market = await this.chain.marketFees(tx.chainId, last.type);
    const account = await this.accounts.getById(tx.userId);
    const cap = feeCap({
      acceptedMaxFee: maxGasPrice(feesOf(tx)),
      multiple: this.config.RELAY_MAX_FEE_MULTIPLE,
      estimatedCostMicro: tx.estimatedCostMicro,
      perTxLimitMicro: account.perTxLimitMicro,
    });
    const baseFee = market.type === 'eip1559' ? await this.chain.baseFee(tx.chainId) : null;
    return repricedFees({ last, market, bumpPercent: this.config.RELAY_FEE_BUMP_PERCENT, replacing, cap, baseFee });
  }

  /** False when a first send found the row already signed or finished (nothing was claimed or sent). */
  private async signAndBroadcast(tx: RelayTransactionEntity, signer: RelaySigner, fees: FeeSettings, reuseNonce: bigint | null): Promise<boolean> {
    const signStarted = Date.now();
    const sign = async (nonce: bigint): Promise<SignedTx> => {
      const raw = await signer.signTransaction(signedRequest(tx, fees, nonce));
      return { raw, hash: keccak256(raw) };
    };
    let signed: SignedTx;
    let nonce: bigint;
    if (reuseNonce === null) {
      // The nonce, the signed bytes and the row (accepted → signed) in one statement, only while the row is accepted.
      const claimed = await this.nonces.claimIfOpen(tx.chainId, signer.address, sign, (s, n) => ({
        ctes: [broadcastInsertCte(tx.id, tx.chainId, signer.address, fees, s, n, true), this.txs.signedCte(tx.id, signer.address, n, s.hash)],
        gate: this.txs.claimOpen(tx.id),
      }));
      if (!claimed) return false;
      ({ signed, nonce } = claimed);
    } else {
      // A replacement keeps the row's nonce.
      nonce = reuseNonce;
      signed = await sign(nonce);
      await this.txs.writeReplacement([broadcastInsertCte(tx.id, tx.chainId, signer.address, fees, signed, nonce, false), this.txs.replacedCte(tx.id, signed.hash, fees)]);
    }
    const { raw, hash } = signed;
    this.metrics.observeStage(tx.chainId, 'sign', signStarted);
    tx.sender = signer.address.toLowerCase();
    tx.nonce = nonce;
    tx.executionTxHash = hash;
    if (reuseNonce !== null) Object.assign(tx, { gasPrice: null, maxFeePerGas: null, maxPriorityFeePerGas: null }, feeColumns(fees));
    if (tx.stage === 'accepted') tx.stage = 'signed';
    // Read after the claim, just before the broadcast: the transaction lands in a later block, and a
    // head read before a claim that waited behind the key's other claims sent the tracker back to
    // blocks it had read already.
    if (this.slots.behindRefused(tx.chainId, signer.address, nonce)) throw this.heldBack(tx.chainId, signer.address, nonce, hash);
    const fromBlock = await this.tracker.headHint(tx.chainId);
    const broadcastStarted = Date.now();
    const sentAt = performance.now();
    const outcome = await this.chain.broadcast(tx.chainId, raw);
    this.metrics.observeStage(tx.chainId, 'broadcast', broadcastStarted);
    if (outcome === 'sent') {
      this.slots.taken(tx.id);
      // The tracker's copy: inclusion is counted from here.
      tx.broadcastAt = new Date();
      await this.afterBroadcast(tx, hash, fromBlock, sentAt);
      return true;
    }
    await this.refused(tx, signer, fees, outcome, reuseNonce !== null);
    return true;
  }

  /** A refused signature: what the refusal proves decides (broadcast-error.ts); never a new nonce unless NonceFate says so. */
  private async refused(tx: RelayTransactionEntity, signer: RelaySigner, fees: FeeSettings, outcome: Exclude<BroadcastOutcome, 'known'>, replacement: boolean): Promise<void> {
    const nonce = tx.nonce as bigint;
    switch (outcome) {
      case 'nonce-used': {
        const previous = await this.broadcastRows.forTx(tx.id);
        return this.afterVerdict(tx, previous, await this.fate.decide(tx, previous));
      }
      case 'under-base-fee': {
        // This signature is in no pool: the same nonce, priced from fresh fees, once per attempt.
        const repriced = replacement ? null : await this.repriced(tx, fees, false);
        if (!repriced) throw new TransientSendError(`${tx.id} is priced under the base fee and could not be re-priced within its cap now`);
        // Fee reads no fresher than the node that refused (a lagging read node): ask again shortly, no retry spent.
        if (maxGasPrice(repriced) <= maxGasPrice(fees)) throw new BackPressureError(`${tx.id} is priced under the base fee; the fee data read does not show it yet`, UNDER_BASE_FEE_RETRY_MS);
        this.logger.log(`re-pricing ${tx.id} (nonce ${nonce}) under the base fee: max fee ${maxGasPrice(fees)} → ${maxGasPrice(repriced)}`);
        await this.signAndBroadcast(tx, signer, repriced, nonce);
        return;
      }
      case 'replacement-underpriced':
        // A pool holds another transaction at the nonce (maybe an earlier one of ours): keep the nonce, watch, bump later.
        await this.watch(tx);
        return;
      case 'busy':
        throw this.poolFull(tx.chainId, signer.address, tx.id, nonce, tx.executionTxHash as string);
      case 'rejected':
        if (!replacement) {
          this.slots.release(tx.id);
          await this.filler.fill(tx.chainId, signer, nonce);
        }
        throw new PermanentSendError(`the node refused the transaction`);
      default:
        throw new TransientSendError(`broadcast of ${tx.executionTxHash} failed (${outcome})`);
    }
  }

  /** What the sender does with NonceFate's verdict: settled → done; reissue → back to accepted; wait → keep the nonce and watch. */
  private async afterVerdict(tx: RelayTransactionEntity, previous: RelayBroadcastEntity[], verdict: string): Promise<void> {
    if (verdict === 'settled') return;
    if (verdict === 'reissue') {
      await this.nonces.resync(tx.chainId, tx.sender as string);
      await this.txs.releaseNonce(tx.id);
      this.slots.release(tx.id);
      throw new TransientSendError(`nonce ${tx.nonce} of ${tx.sender} was consumed by another transaction on chain ${tx.chainId}`);
    }
    await this.watch(tx, previous);
  }

  /** Every hash of the row watched by the tracker (from a few blocks back, in case one is mined already). */
  private async watch(tx: RelayTransactionEntity, previous?: RelayBroadcastEntity[]): Promise<void> {
    const from = Math.max((await this.chain.blockNumber(tx.chainId)) - 64, 0);
    for (const b of previous ?? (await this.broadcastRows.forTx(tx.id))) this.tracker.track(tx.chainId, tx.id, b.hash, from);
  }

  private async rebroadcast(tx: RelayTransactionEntity, previous: RelayBroadcastEntity[]): Promise<void> {
    if (await this.mined.settleIfMined(tx, previous)) return;
    if (tx.fundingTxHash && !(await this.chain.receipt(tx.chainId, tx.fundingTxHash))) {
      throw new TransientSendError(`top-up ${tx.fundingTxHash} is not mined yet`);
    }
    const latest = previous[previous.length - 1];
    if (this.slots.behindRefused(tx.chainId, latest.sender, latest.nonce)) throw this.heldBack(tx.chainId, latest.sender, latest.nonce, latest.hash);
    const fromBlock = await this.chain.blockNumber(tx.chainId);
    const outcome = await this.chain.broadcast(tx.chainId, latest.raw);
    if (outcome === 'sent') {
      this.slots.taken(tx.id);
      for (const b of previous) this.tracker.track(tx.chainId, tx.id, b.hash, Math.max(fromBlock - 64, 0));
      this.marks.accepted(latest.hash);
      return;
    }
    if (outcome === 'nonce-used') return this.afterVerdict(tx, previous, await this.fate.decide(tx, previous));
    if (outcome === 'replacement-underpriced') return this.watch(tx, previous);
    if (outcome === 'busy') throw this.poolFull(tx.chainId, latest.sender, tx.id, latest.nonce, latest.hash);
    if (outcome === 'under-base-fee' && tx.transactionType !== 'funding-signed' && tx.sender) {
      const signer = this.signers.forRow(tx);
      const repriced = signer ? await this.repriced(tx, recordedFees(latest), false) : null;
      if (repriced && maxGasPrice(repriced) <= BigInt(latest.maxFeePerGas)) throw new BackPressureError(`${tx.id} is priced under the base fee; the fee data read does not show it yet`, UNDER_BASE_FEE_RETRY_MS);
      if (signer && repriced) {
        this.logger.log(`re-pricing ${tx.id} (nonce ${tx.nonce}) under the base fee: max fee ${latest.maxFeePerGas} → ${maxGasPrice(repriced)}`);
        await this.signAndBroadcast(tx, signer, repriced, tx.nonce);
        return;
      }
    }
    if (outcome === 'rejected') throw new PermanentSendError('the node refused the transaction');
    throw new TransientSendError(`rebroadcast of ${latest.hash} failed (${outcome})`);
  }

  /**
   * The node proved it did not take the transaction (pool full for the key, or too many pending):
   * the row keeps its nonce and signed bytes (no gap) and is sent again once the key has room;
   * the key takes no new nonce meanwhile.
   */
  private poolFull(chainId: number, sender: string, txId: string, nonce: bigint, hash: string): BackPressureError {
    this.slots.refused(chainId, sender, txId, nonce);
    return new BackPressureError(`the node's pool is full for ${sender}: ${hash} is sent again later`, POOL_FULL_RETRY_MS);
  }

  /** Not sent: a lower nonce of the key waits for room in the node's pool (`KeySlots.behindRefused`); sent after it. */
  private heldBack(chainId: number, sender: string, nonce: bigint, hash: string): BackPressureError {
    return new BackPressureError(`${hash} (nonce ${nonce} of ${sender} on ${chainId}) waits for a lower nonce the node refused as pool full`, POOL_FULL_RETRY_MS);
  }

  private async afterBroadcast(tx: RelayTransactionEntity, hash: string, fromBlock: number, sentAt: number): Promise<void> {
    // When the tracker is already polling this chain every few ms (other broadcasts in flight),
    // it finds this receipt as soon as a receipt call would: one node call less per transaction.
    const polling = this.tracker.isPollingFast(tx.chainId);
    this.tracker.track(tx.chainId, tx.id, hash, fromBlock + 1, tx, sentAt);
    // Side by side: the hash signal (returnOnTxHash waiters) and, on an idle chain, the receipt,
    // which instant-mining chains may already have (settling now saves a poll interval).
    const [receipt] = await Promise.all([polling ? null : this.chain.receipt(tx.chainId, hash), this.publisher.publish('hash', notificationFor(tx, null))]);
    // Settlement marks the mined broadcast as accepted in its own statement; others are marked in batches.
    if (receipt) await this.tracker.found(tx.chainId, receipt, tx);
    else this.marks.accepted(hash);
  }
}
