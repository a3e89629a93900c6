import { Injectable, Logger } from '@nestjs/common';
import { keccak256 } from 'ethers';
import { AppConfig } from '../../../config/app-config';
import { notificationFor, TxStatusPublisher } from '../../tx-events';
import { bumpFees, FeeSettings, maxGasPrice } from '../core/fees';
import { RelaySigner, SignerPool } from '../core/signer-pool.service';
import { feesOf, recordedFees, signedRequest } from '../core/signed-request';
import { RelayBroadcastEntity } from '../store/relay-broadcast.entity';
import { broadcastInsertCte, RelayBroadcastStore, SignedTx } from '../store/relay-broadcast.store';
import { RelayTransactionEntity } from '../store/relay-transaction.entity';
import { RelayTransactionStore } from '../store/relay-transaction.store';
import { BroadcastMarks } from './broadcast-marks';
import { ChainIo } from './chain-io.service';
import { DerivedFunding } from './derived-funding.service';
import { MinedCheck } from './mined-check';
import { NonceFiller } from './nonce-filler';
import { NonceManager } from './nonce-manager.service';
import { ReceiptTracker } from './receipt-tracker.service';
import { KeySlots } from './key-slots.service';
import { BackPressureError, PermanentSendError, TransientSendError } from './send-errors';

/** A send that found every key full waited RELAY_SLOT_WAIT_MS already: queue it again soon. */
const SLOT_RETRY_MS = 250;
/** About a block on most chains: a full pool has room again once a block took some of it. */
const POOL_FULL_RETRY_MS = 1_000;

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
    private readonly slots: KeySlots,
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
    const signer = tx.derivationPath ? this.signers.derive(tx.derivationPath) : await this.poolKey(tx);
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

  /** A key of the row's pool with room under the in-flight bound, waiting for one up to RELAY_SLOT_WAIT_MS. */
  private async poolKey(tx: RelayTransactionEntity): Promise<RelaySigner> {
    const signer = await this.slots.acquire(tx.chainId, this.signers.pool(tx.submitRegion), tx.id, this.config.RELAY_SLOT_WAIT_MS);
    if (!signer) throw new BackPressureError(`every relayer key of ${tx.submitRegion} on ${tx.chainId} has ${this.config.RELAY_MAX_IN_FLIGHT_PER_KEY} in flight`, SLOT_RETRY_MS);
    return signer;
  }

  /** Same nonce, fees bumped past both the last attempt and the current market. */
  async replace(txId: string): Promise<void> {
    const tx = await this.txs.findById(txId);
    if (!tx || tx.status !== 'PENDING' || tx.nonce === null || !tx.sender) return;
    const previous = await this.broadcastRows.forTx(txId);
    const last = previous.at(-1);
    // A user-signed transaction cannot be re-signed: keep sending the same bytes.
    if (!last || tx.transactionType === 'funding-signed') return this.send(txId);
    if (await this.mined.settleIfMined(tx, previous)) return;
    const signer = tx.derivationPath ? this.signers.derive(tx.derivationPath) : this.signers.byAddress(tx.sender);
    if (!signer) throw new PermanentSendError(`no key for sender ${tx.sender}`);
    const lastFees = recordedFees(last);
    const market = await this.chain.marketFees(tx.chainId, lastFees.type);
    const fees = bumpFees(lastFees, this.config.RELAY_FEE_BUMP_PERCENT, market);
    this.logger.log(`replacing ${txId} (nonce ${tx.nonce}) with max fee ${maxGasPrice(fees)}`);
    await this.signAndBroadcast(tx, signer, fees, tx.nonce);
  }

  /** False when a first send found the row already signed or finished (nothing was claimed or sent). */
  private async signAndBroadcast(tx: RelayTransactionEntity, signer: RelaySigner, fees: FeeSettings, reuseNonce: bigint | null): Promise<boolean> {
    const fromBlock = await this.tracker.headHint(tx.chainId);
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
      await this.txs.writeReplacement([broadcastInsertCte(tx.id, tx.chainId, signer.address, fees, signed, nonce, false), this.txs.replacedCte(tx.id, signed.hash)]);
    }
    const { raw, hash } = signed;
    tx.sender = signer.address.toLowerCase();
    tx.nonce = nonce;
    tx.executionTxHash = hash;
    if (tx.stage === 'accepted') tx.stage = 'signed';
    const outcome = await this.chain.broadcast(tx.chainId, raw);
    if (outcome === 'nonce-used') {
      // Someone else's transaction took the nonce (keys shared, counter behind): resync and let the retry re-sign.
      if (await this.mined.settleIfMined(tx, await this.broadcastRows.forTx(tx.id))) return true;
      await this.nonces.resync(tx.chainId, signer.address);
      await this.txs.releaseNonce(tx.id, hash);
      this.slots.release(tx.id);
      throw new TransientSendError(`nonce ${nonce} of ${signer.address} was already used on chain ${tx.chainId}`);
    }
    if (outcome === 'rejected') {
      this.slots.release(tx.id);
      await this.filler.fill(tx.chainId, signer, nonce);
      throw new PermanentSendError(`the node refused the transaction`);
    }
    if (outcome === 'pool-full') throw this.poolFull(tx.chainId, signer.address, hash);
    if (outcome === 'transient') throw new TransientSendError(`broadcast of ${hash} failed`);
    await this.afterBroadcast(tx, hash, fromBlock);
    return true;
  }

  private async rebroadcast(tx: RelayTransactionEntity, previous: RelayBroadcastEntity[]): Promise<void> {
    if (await this.mined.settleIfMined(tx, previous)) return;
    if (tx.fundingTxHash && !(await this.chain.receipt(tx.chainId, tx.fundingTxHash))) {
      throw new TransientSendError(`top-up ${tx.fundingTxHash} is not mined yet`);
    }
    const latest = previous[previous.length - 1];
    const fromBlock = await this.chain.blockNumber(tx.chainId);
    const outcome = await this.chain.broadcast(tx.chainId, latest.raw);
    if (outcome === 'transient') throw new TransientSendError(`rebroadcast of ${latest.hash} failed`);
    if (outcome === 'pool-full') throw this.poolFull(tx.chainId, latest.sender, latest.hash);
    if (outcome === 'rejected') throw new PermanentSendError('the node refused the transaction');
    for (const b of previous) this.tracker.track(tx.chainId, tx.id, b.hash, Math.max(fromBlock - 64, 0));
    if (outcome === 'nonce-used') await this.mined.settleIfMined(tx, previous);
    else this.marks.accepted(latest.hash);
  }

  /**
   * The node proved it did not take the transaction: the row keeps its nonce and signed bytes
   * (the nonce stays ours, no gap) and is sent again once the key has room; the key takes no
   * new nonce meanwhile.
   */
  private poolFull(chainId: number, sender: string, hash: string): BackPressureError {
    this.slots.refused(chainId, sender);
    return new BackPressureError(`the node's pool is full for ${sender}: ${hash} is sent again later`, POOL_FULL_RETRY_MS);
  }

  private async afterBroadcast(tx: RelayTransactionEntity, hash: string, fromBlock: number): Promise<void> {
    // When the tracker is already polling this chain every few ms (other broadcasts in flight),
    // it finds this receipt as soon as a receipt call would: one node call less per transaction.
    const polling = this.tracker.isPollingFast(tx.chainId);
    this.tracker.track(tx.chainId, tx.id, hash, fromBlock + 1, tx);
    // Side by side: the hash signal (returnOnTxHash waiters) and, on an idle chain, the receipt,
    // which instant-mining chains may already have (settling now saves a poll interval).
    const [receipt] = await Promise.all([polling ? null : this.chain.receipt(tx.chainId, hash), this.publisher.publish('hash', notificationFor(tx, null))]);
    // Settlement marks the mined broadcast as accepted in its own statement; others are marked in batches.
    if (receipt) await this.tracker.found(tx.chainId, receipt, tx);
    else this.marks.accepted(hash);
  }
}
