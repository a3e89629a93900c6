import { Injectable } from '@nestjs/common';
import { reactionTo } from '../../core/broadcast-reaction';
import { recordedFees } from '../../core/signed-request';
import { RelayBroadcastEntity } from '../../store/relay-broadcast.entity';
import { RelayTransactionEntity } from '../../store/relay-transaction.entity';
import { KeySlots } from '../keys/key-slots.service';
import { ChainIo } from '../node/chain-io.service';
import { MinedCheck } from '../track/mined-check';
import { Broadcasted } from './broadcasted';
import { heldBack, Refusals } from './refusals';
import { TransientSendError } from './send-errors';
import { SignerLookup } from './signer-lookup';
import { Transmit } from './transmit.service';

/**
 * The row's latest signed bytes sent again, byte for byte: a retry, a recovery after a crash, a
 * row nobody tracks, a user-signed transaction. Under the base fee a relay-signed row is re-priced
 * at its nonce (`Transmit.reprice`).
 */
@Injectable()
export class Resend {
  constructor(
    private readonly mined: MinedCheck,
    private readonly chain: ChainIo,
    private readonly slots: KeySlots,
    private readonly broadcasted: Broadcasted,
    private readonly refusals: Refusals,
    private readonly transmit: Transmit,
    private readonly keys: SignerLookup,
  ) {}

  async resend(tx: RelayTransactionEntity, previous: RelayBroadcastEntity[]): Promise<void> {
    if (await this.mined.settleIfMined(tx, previous)) return;
    if (tx.fundingTxHash && !(await this.chain.receipt(tx.chainId, tx.fundingTxHash))) {
      throw new TransientSendError(`top-up ${tx.fundingTxHash} is not mined yet`);
    }
    const latest = previous[previous.length - 1];
    if (this.slots.behindRefused(tx.chainId, latest.sender, latest.nonce)) throw heldBack(tx.chainId, latest.sender, latest.nonce, latest.hash);
    const fromBlock = await this.chain.blockNumber(tx.chainId);
    const outcome = await this.chain.broadcast(tx.chainId, latest.raw);
    const reaction = reactionTo(outcome, tx.transactionType === 'funding-signed' ? 'user-signed' : 'resend');
    if (reaction.kind === 'sent') {
      this.slots.taken(tx.id);
      return this.broadcasted.resent(tx, previous, fromBlock);
    }
    const refused = { tx, sender: latest.sender, nonce: latest.nonce, hash: latest.hash, outcome, what: 'rebroadcast', previous };
    if (reaction.kind === 'reprice') {
      const signer = this.keys.signerFor(tx, 'optional');
      if (!signer) return this.refusals.act({ kind: 'retry' }, refused);
      return this.transmit.reprice(tx, signer, recordedFees(latest));
    }
    return this.refusals.act(reaction, refused);
  }
}
