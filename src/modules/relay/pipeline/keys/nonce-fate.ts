import { Injectable, Logger } from '@nestjs/common';
import { ChainRegistry } from '../../../chains';
import { confirmationsOf } from '../../core/confirmations';
import { RelayBroadcastEntity } from '../../store/relay-broadcast.entity';
import { RelayTransactionEntity } from '../../store/relay-transaction.entity';
import { ChainIo } from '../node/chain-io.service';
import { MinedCheck } from '../track/mined-check';

/**
 * - `settled`: a receipt for one of the row's hashes was found and settled;
 * - `reissue`: the chain shows, `confirmations` blocks deep, the signer's nonce past the row's
 *   and none of the row's hashes mined: another transaction consumed the nonce, for good;
 * - `wait`: the nonce is consumed but not yet that deep (or a receipt may still show up on a
 *   node that lags): the row keeps its nonce and its signed transactions;
 * - `open`: the chain has not consumed the nonce: the row's transaction may still be mined.
 */
export type NonceFateVerdict = 'settled' | 'reissue' | 'wait' | 'open';

/**
 * Which transaction consumed a row's nonce, read with finality. The only place that may allow a
 * row to be signed under another nonce: until it says `reissue`, any of the row's signed
 * transactions could still be the one mined, and signing again could execute the call twice.
 */
@Injectable()
export class NonceFate {
  private readonly logger = new Logger(NonceFate.name);

  constructor(
    private readonly chain: ChainIo,
    private readonly chains: ChainRegistry,
    private readonly mined: MinedCheck,
  ) {}

  async decide(tx: RelayTransactionEntity, broadcasts: RelayBroadcastEntity[]): Promise<NonceFateVerdict> {
    // Accepted: no nonce was claimed, so none can be consumed.
    if (tx.stage === 'accepted') return 'open';
    const nonce = tx.nonce as bigint;
    const sender = tx.sender as string;
    if (await this.mined.settleIfMined(tx, broadcasts)) return 'settled';
    const depth = confirmationsOf(this.chains.get(tx.chainId));
    const head = await this.chain.blockNumber(tx.chainId);
    // Read at the head first: most rows whose nonce is open are decided by one call.
    if ((await this.chain.nonceAt(tx.chainId, sender, head)) <= nonce) return 'open';
    const deep = head - depth;
    if (deep < 0 || (await this.chain.nonceAt(tx.chainId, sender, deep)) <= nonce) return 'wait';
    // The receipts again, read after the nonce: a transaction of ours mined that deep shows on the same node.
    if (await this.mined.settleIfMined(tx, broadcasts)) return 'settled';
    this.logger.warn(`nonce ${tx.nonce} of ${tx.sender} on ${tx.chainId} was consumed ${depth}+ blocks deep by a transaction not of ${tx.id}`);
    return 'reissue';
  }
}
