import { Injectable } from '@nestjs/common';
import { SENT } from '../../core/stage';
import { SignerLookup } from '../send/signer-lookup';
import { RelayBroadcastStore } from '../../store/relay-broadcast.store';
import { RelayTransactionStore } from '../../store/relay-transaction.store';
import { ChainIo } from '../node/chain-io.service';
import { MinedCheck } from '../track/mined-check';
import { NonceFate } from '../keys/nonce-fate';
import { NonceFiller } from '../keys/nonce-filler';

/**
 * Before a transaction is given up on: settles it if one of its hashes is mined, keeps it if
 * one still waits in the node's pool (it may yet be mined, and then it must be charged), and
 * otherwise fills its nonce if that was signed but never used, so the key's later
 * transactions are not stuck behind it.
 */
@Injectable()
export class Abandonment {
  constructor(
    private readonly txs: RelayTransactionStore,
    private readonly broadcastRows: RelayBroadcastStore,
    private readonly chain: ChainIo,
    private readonly mined: MinedCheck,
    private readonly keys: SignerLookup,
    private readonly filler: NonceFiller,
    private readonly fate: NonceFate,
  ) {}

  /** True when failing the row loses nothing. */
  async safeToFail(txId: string): Promise<boolean> {
    const tx = await this.txs.findById(txId);
    // Never signed (nothing of it can land), or finished already (failing it moves nothing).
    if (!tx || !SENT.includes(tx.stage)) return true;
    const nonce = tx.nonce as bigint;
    const previous = await this.broadcastRows.forTx(txId);
    if (await this.mined.settleIfMined(tx, previous)) return false;
    if (await this.chain.anyKnown(tx.chainId, previous.map((b) => b.hash))) return false;
    if (tx.transactionType === 'funding-signed') return true;
    // Consumed: only a final proof that another transaction took it lets the row fail; a nonce
    // consumed on a lagging view may be our own transaction, mined and not yet visible.
    const verdict = await this.fate.decide(tx, previous);
    if (verdict !== 'open') return verdict === 'reissue';
    if ((await this.chain.pendingNonce(tx.chainId, tx.sender as string)) > nonce) return false;
    const signer = this.keys.signerFor(tx, 'optional');
    if (signer) await this.filler.fill(tx.chainId, signer, nonce);
    return true;
  }
}
