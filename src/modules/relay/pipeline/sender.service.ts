import { Injectable, Logger } from '@nestjs/common';
import { keccak256, TransactionRequest } from 'ethers';
import { AppConfig } from '../../../config/app-config';
import { ChainRegistry } from '../../chains';
import { TxStatusPublisher } from '../../tx-events';
import { TRANSFER_GAS } from '../intake/estimator.service';
import { bumpFees, FeeSettings, maxGasPrice } from '../core/fees';
import { marketFees } from '../core/market-fees';
import { RelayBroadcastEntity } from '../store/relay-broadcast.entity';
import { broadcastInsertCte, RelayBroadcastStore, SignedTx } from '../store/relay-broadcast.store';
import { RelayTransactionStore } from '../store/relay-transaction.store';
import { RelayTransactionEntity } from '../store/relay-transaction.entity';
import { NonceManager } from './nonce-manager.service';
import { RelaySigner, SignerPool } from '../core/signer-pool.service';
import { TopUpService } from './top-up.service';
import { BroadcastOutcome, classifyBroadcastError } from './broadcast-error';
import { BroadcastMarks } from './broadcast-marks';
import { fromRpcReceipt } from '../core/mined-receipt';
import { ReceiptTracker } from './receipt-tracker.service';
import { notificationFor } from '../../tx-events';

export class TransientSendError extends Error {}
export class PermanentSendError extends Error {}

/**
 * Signs and broadcasts relayed transactions. The nonce is allocated in the same database
 * transaction that stores the signed bytes and hash, so a crash after commit leaves a
 * transaction the next attempt rebroadcasts byte for byte, never a second signature.
 */
@Injectable()
export class SenderService {
  private readonly logger = new Logger(SenderService.name);

  constructor(
    private readonly txs: RelayTransactionStore,
    private readonly broadcastRows: RelayBroadcastStore,
    private readonly chains: ChainRegistry,
    private readonly signers: SignerPool,
    private readonly nonces: NonceManager,
    private readonly tracker: ReceiptTracker,
    private readonly publisher: TxStatusPublisher,
    private readonly config: AppConfig,
    private readonly topUps: TopUpService,
    private readonly marks: BroadcastMarks,
  ) {}

  /**
   * `submitted` is the row as the submission wrote it (the first send job carries it): a pool
   * key's first send then reads nothing, and the claim's gate (still PENDING, no nonce yet) makes
   * a stale copy harmless. Derived senders are topped up before signing, so they read the row.
   */
  async send(txId: string, submitted?: RelayTransactionEntity): Promise<void> {
    const tx = submitted && submitted.id === txId && !submitted.derivationPath ? submitted : await this.txs.findById(txId);
    if (!tx || tx.status !== 'PENDING') return;
    // A relayer-signed row gets its nonce in the same commit as its first broadcast row, so
    // without a nonce there is nothing to look up; user-signed rows come with their broadcast.
    const previous = tx.nonce === null && tx.transactionType !== 'funding-signed' ? [] : await this.broadcasts(txId);
    if (previous.length > 0) {
      // A retry or a recovery after a crash: the signed bytes exist, send them again.
      await this.rebroadcast(tx, previous);
      return;
    }
    const signer = tx.derivationPath ? this.signers.derive(tx.derivationPath) : await this.signers.next(tx.submitRegion, tx.chainId);
    if (tx.derivationPath) await this.fundDerived(tx, signer);
    const fees = feesOf(tx);
    const sent = await this.signAndBroadcast(tx, signer, fees, null);
    // Already signed (or finished) by an earlier run of this job: carry on from the row as it is.
    if (!sent && tx === submitted) await this.send(txId);
  }

  /** Same nonce, fees bumped past both the last attempt and the current market. */
  async replace(txId: string): Promise<void> {
    const tx = await this.txs.findById(txId);
    if (!tx || tx.status !== 'PENDING' || tx.nonce === null || !tx.sender) return;
    const previous = await this.broadcasts(txId);
    const last = previous.at(-1);
    // A user-signed transaction cannot be re-signed: keep sending the same bytes.
    if (!last || tx.transactionType === 'funding-signed') return this.send(txId);
    if (await this.settleIfMined(tx, previous)) return;
    const signer = tx.derivationPath ? this.signers.derive(tx.derivationPath) : this.signers.byAddress(tx.sender);
    if (!signer) throw new PermanentSendError(`no key for sender ${tx.sender}`);
    const lastFees: FeeSettings = last.maxPriorityFeePerGas === null
      ? { type: 'legacy', gasPrice: BigInt(last.maxFeePerGas) }
      : { type: 'eip1559', maxFeePerGas: BigInt(last.maxFeePerGas), maxPriorityFeePerGas: BigInt(last.maxPriorityFeePerGas) };
    const market = await this.marketFees(tx.chainId, lastFees.type);
    const fees = bumpFees(lastFees, this.config.RELAY_FEE_BUMP_PERCENT, market);
    this.logger.log(`replacing ${txId} (nonce ${tx.nonce}) with max fee ${maxGasPrice(fees)}`);
    await this.signAndBroadcast(tx, signer, fees, tx.nonce);
  }

  /**
   * Before a transaction is given up on: settles it if one of its hashes is mined, keeps it if
   * one still waits in the node's pool (it may yet be mined, and then it must be charged), and
   * otherwise fills its nonce if that was signed but never used, so the key's later
   * transactions are not stuck behind it. True when failing the row loses nothing.
   */
  async abandon(txId: string): Promise<boolean> {
    const tx = await this.txs.findById(txId);
    if (!tx || tx.nonce === null || !tx.sender) return true;
    const previous = await this.broadcasts(txId);
    if (await this.settleIfMined(tx, previous)) return false;
    if (await this.anyInPool(tx.chainId, previous)) return false;
    if (tx.transactionType === 'funding-signed') return true;
    const chainNonce = BigInt(await this.chains.provider(tx.chainId).getTransactionCount(tx.sender, 'pending'));
    if (chainNonce > tx.nonce) return true; // another transaction took the nonce
    const signer = tx.derivationPath ? this.signers.derive(tx.derivationPath) : this.signers.byAddress(tx.sender);
    if (signer) await this.fillNonce(tx.chainId, signer, tx.nonce);
    return true;
  }

  private async anyInPool(chainId: number, broadcasts: RelayBroadcastEntity[]): Promise<boolean> {
    const provider = this.chains.provider(chainId);
    for (const b of broadcasts) {
      const pending = await provider.send('eth_getTransactionByHash', [b.hash]);
      if (pending) return true;
    }
    return false;
  }

  /** Fills a nonce that no transaction will use (its transaction failed before reaching the chain). */
  async fillNonce(chainId: number, signer: RelaySigner, nonce: bigint): Promise<void> {
    const fees = bumpFees(await this.marketFees(chainId, 'eip1559'), 20);
    const raw = await signer.signTransaction({ ...txFees(fees), chainId, nonce: Number(nonce), to: signer.address, value: 0n, gasLimit: TRANSFER_GAS });
    try {
      await this.chains.provider(chainId).send('eth_sendRawTransaction', [raw]);
      this.logger.warn(`filled nonce ${nonce} of ${signer.address} on ${chainId} with a no-op transfer`);
    } catch (err) {
      if (classifyBroadcastError(err) !== 'nonce-used') this.logger.error(`could not fill nonce ${nonce} of ${signer.address}: ${(err as Error).message}`);
    }
  }

  /** False when a first send found the row already signed or finished (nothing was claimed or sent). */
  private async signAndBroadcast(tx: RelayTransactionEntity, signer: RelaySigner, fees: FeeSettings, reuseNonce: bigint | null): Promise<boolean> {
    const fromBlock = await this.tracker.headHint(tx.chainId);
    const sign = async (nonce: bigint): Promise<SignedTx> => {
      const raw = await signer.signTransaction(this.request(tx, fees, nonce));
      return { raw, hash: keccak256(raw) };
    };
    let signed: SignedTx;
    let nonce: bigint;
    if (reuseNonce === null) {
      // The nonce, the signed bytes and the row in one statement, only while the row is unsent.
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
    const outcome = await this.broadcast(tx.chainId, raw);
    if (outcome === 'nonce-used') {
      // Someone else's transaction took the nonce (keys shared, counter behind): resync and let the retry re-sign.
      if (await this.settleIfMined(tx, await this.broadcasts(tx.id))) return true;
      await this.nonces.resync(tx.chainId, signer.address);
      await this.txs.releaseNonce(tx.id, hash);
      throw new TransientSendError(`nonce ${nonce} of ${signer.address} was already used on chain ${tx.chainId}`);
    }
    if (outcome === 'rejected') {
      await this.fillNonce(tx.chainId, signer, nonce);
      throw new PermanentSendError(`the node refused the transaction`);
    }
    if (outcome === 'transient') throw new TransientSendError(`broadcast of ${hash} failed`);
    await this.afterBroadcast(tx, hash, fromBlock);
    return true;
  }

  private async rebroadcast(tx: RelayTransactionEntity, previous: RelayBroadcastEntity[]): Promise<void> {
    if (await this.settleIfMined(tx, previous)) return;
    if (tx.fundingTxHash) {
      const funding = await this.chains.provider(tx.chainId).send('eth_getTransactionReceipt', [tx.fundingTxHash]).catch(() => null);
      if (!funding) throw new TransientSendError(`top-up ${tx.fundingTxHash} is not mined yet`);
    }
    const latest = previous[previous.length - 1];
    const fromBlock = await this.chains.provider(tx.chainId).getBlockNumber();
    const outcome = await this.broadcast(tx.chainId, latest.raw);
    if (outcome === 'transient') throw new TransientSendError(`rebroadcast of ${latest.hash} failed`);
    if (outcome === 'rejected') throw new PermanentSendError('the node refused the transaction');
    for (const b of previous) this.tracker.track(tx.chainId, tx.id, b.hash, Math.max(fromBlock - 64, 0));
    if (outcome === 'nonce-used') await this.settleIfMined(tx, previous);
    else this.marks.accepted(latest.hash);
  }

  private async afterBroadcast(tx: RelayTransactionEntity, hash: string, fromBlock: number): Promise<void> {
    // When the tracker is already polling this chain every few ms (other broadcasts in flight),
    // it finds this receipt as soon as a receipt call would: one node call less per transaction.
    const polling = this.tracker.isPollingFast(tx.chainId);
    this.tracker.track(tx.chainId, tx.id, hash, fromBlock + 1, tx);
    // Side by side: the hash signal (returnOnTxHash waiters) and, on an idle chain, the receipt,
    // which instant-mining chains may already have (settling now saves a poll interval).
    const [raw] = await Promise.all([
      polling ? null : this.chains.provider(tx.chainId).send('eth_getTransactionReceipt', [hash]).catch(() => null),
      this.publisher.publish('hash', notificationFor(tx, null)),
    ]);
    // Settlement marks the mined broadcast as accepted in its own statement; others are marked in batches.
    if (raw) await this.tracker.found(tx.chainId, fromRpcReceipt(raw), tx);
    else this.marks.accepted(hash);
  }

  /** True when one of the transaction's hashes is mined (and it has been settled). */
  async settleIfMined(tx: RelayTransactionEntity, previous: RelayBroadcastEntity[]): Promise<boolean> {
    const provider = this.chains.provider(tx.chainId);
    for (const b of previous) {
      const raw = await provider.send('eth_getTransactionReceipt', [b.hash]).catch(() => null);
      if (raw) {
        this.tracker.track(tx.chainId, tx.id, b.hash, 0);
        await this.tracker.found(tx.chainId, fromRpcReceipt(raw));
        return true;
      }
    }
    return false;
  }

  private async broadcast(chainId: number, raw: string): Promise<BroadcastOutcome | 'sent'> {
    try {
      await this.chains.provider(chainId).send('eth_sendRawTransaction', [raw]);
      return 'sent';
    } catch (err) {
      const outcome = classifyBroadcastError(err);
      if (outcome !== 'known') this.logger.warn(`broadcast on ${chainId}: ${outcome}: ${(err as Error).message.split('\n')[0].slice(0, 200)}`);
      return outcome === 'known' ? 'sent' : outcome;
    }
  }

  /**
   * Tops the derived sender up from the region's pool just in time, so it holds the worst case
   * of this transaction; the transfer's gas is charged with the transaction.
   */
  private async fundDerived(tx: RelayTransactionEntity, derived: RelaySigner): Promise<void> {
    const provider = this.chains.provider(tx.chainId);
    const fees = feesOf(tx);
    const needed = BigInt(tx.gasLimit ?? '0') * maxGasPrice(fees) + BigInt(tx.value);
    const balance = await provider.getBalance(derived.address);
    if (balance >= needed) return;
    const { raw, hash } = await this.topUps.sign(tx.chainId, tx.submitRegion, derived.address, needed - balance, fees.type);
    const outcome = await this.broadcast(tx.chainId, raw);
    if (outcome !== 'sent') throw new TransientSendError(`funding transfer to ${derived.address} failed (${outcome})`);
    const receipt = await this.pollReceipt(tx.chainId, hash, 60_000);
    if (!receipt || receipt.status !== 1) throw new TransientSendError(`funding transfer ${hash} did not confirm`);
    const cost = receipt.gasUsed * receipt.effectiveGasPrice;
    await this.txs.addFundingCost(tx.id, cost);
    tx.fundingCostWei = (BigInt(tx.fundingCostWei) + cost).toString();
  }

  /** Polls for a receipt; ethers' waitForTransaction waits for a new block, which never comes on an idle automine chain. */
  private async pollReceipt(chainId: number, hash: string, timeoutMs: number) {
    const provider = this.chains.provider(chainId);
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline) {
      const raw = await provider.send('eth_getTransactionReceipt', [hash]).catch(() => null);
      if (raw) return fromRpcReceipt(raw);
      await new Promise((r) => setTimeout(r, this.config.RELAY_RECEIPT_POLL_MS));
    }
    return null;
  }

  private marketFees(chainId: number, type: FeeSettings['type']): Promise<FeeSettings> {
    return marketFees(this.chains.provider(chainId), type);
  }

  private request(tx: RelayTransactionEntity, fees: FeeSettings, nonce: bigint): TransactionRequest {
    const request: TransactionRequest = {
      ...txFees(fees),
      chainId: tx.chainId,
      nonce: Number(nonce),
      to: tx.to,
      data: tx.callData,
      value: BigInt(tx.value),
      gasLimit: BigInt(tx.gasLimit ?? '0'),
    };
    if (tx.authorizationList?.length) {
      request.type = 4;
      request.authorizationList = tx.authorizationList.map((a) => ({
        chainId: BigInt(a.chainId),
        address: a.address,
        nonce: BigInt(a.nonce),
        signature: { r: a.r, s: a.s, yParity: a.yParity as 0 | 1 },
      }));
    }
    return request;
  }

  private broadcasts(txId: string): Promise<RelayBroadcastEntity[]> {
    return this.broadcastRows.forTx(txId);
  }
}

function feesOf(tx: RelayTransactionEntity): FeeSettings {
  if (tx.gasPrice !== null) return { type: 'legacy', gasPrice: BigInt(tx.gasPrice) };
  return { type: 'eip1559', maxFeePerGas: BigInt(tx.maxFeePerGas ?? '0'), maxPriorityFeePerGas: BigInt(tx.maxPriorityFeePerGas ?? '0') };
}

function txFees(fees: FeeSettings): Pick<TransactionRequest, 'type' | 'gasPrice' | 'maxFeePerGas' | 'maxPriorityFeePerGas'> {
  return fees.type === 'legacy'
    ? { type: 0, gasPrice: fees.gasPrice }
    : { type: 2, maxFeePerGas: fees.maxFeePerGas, maxPriorityFeePerGas: fees.maxPriorityFeePerGas };
}
