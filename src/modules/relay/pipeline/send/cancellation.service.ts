import { Injectable, Logger } from '@nestjs/common';
import { keccak256 } from 'ethers';
import { reactionTo } from '../../core/broadcast-reaction';
import { CANCEL_GAS } from '../../core/fee-raise';
import { FeeSettings, maxGasPrice } from '../../core/fees';
import { RelaySigner } from '../../core/signer-pool.service';
import { txFees } from '../../core/signed-request';
import { broadcastInsertCte } from '../../store/relay-broadcast.store';
import { RelayTransactionEntity } from '../../store/relay-transaction.entity';
import { RelayTransactionStore } from '../../store/relay-transaction.store';
import { ChainIo } from '../node/chain-io.service';
import { ReceiptTracker } from '../track/receipt-tracker.service';
import { Broadcasted } from './broadcasted';
import { Refusals } from './refusals';

/**
 * A 0-value transfer to the sender itself at the row's nonce: once mined, the call can never
 * be. The row's hash stays its call's; the cancellation is a broadcast of kind `cancel`, which
 * settlement recognises (FAILED with the cancel reason, its gas charged). A refusal is read
 * like any other signature's: only NonceFate may decide the nonce is gone.
 */
@Injectable()
export class Cancellation {
  private readonly logger = new Logger(Cancellation.name);

  constructor(
    private readonly txs: RelayTransactionStore,
    private readonly chain: ChainIo,
    private readonly tracker: ReceiptTracker,
    private readonly broadcasted: Broadcasted,
    private readonly refusals: Refusals,
  ) {}

  async cancel(tx: RelayTransactionEntity, signer: RelaySigner, fees: FeeSettings): Promise<void> {
    const nonce = tx.nonce as bigint;
    const fromBlock = await this.tracker.headHint(tx.chainId);
    const raw = await signer.signTransaction({ ...txFees(fees), chainId: tx.chainId, nonce: Number(nonce), to: signer.address, value: 0n, data: '0x', gasLimit: CANCEL_GAS });
    const hash = keccak256(raw);
    this.logger.log(`cancelling ${tx.id} (${tx.cancelReason}, nonce ${nonce}) with ${hash}, max fee ${maxGasPrice(fees)}`);
    await this.txs.writeReplacement([broadcastInsertCte(tx.id, tx.chainId, signer.address, fees, { raw, hash }, nonce, false, 'cancel')]);
    const outcome = await this.chain.broadcast(tx.chainId, raw);
    const reaction = reactionTo(outcome, 'cancel');
    if (reaction.kind === 'sent') return this.broadcasted.cancellation(tx, hash, fromBlock);
    return this.refusals.act(reaction, { tx, signer, sender: signer.address, nonce, hash, outcome, what: 'cancellation' });
  }
}
