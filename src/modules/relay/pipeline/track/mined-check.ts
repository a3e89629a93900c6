import { Injectable } from '@nestjs/common';
import { RelayBroadcastEntity } from '../../store/relay-broadcast.entity';
import { RelayTransactionEntity } from '../../store/relay-transaction.entity';
import { ChainIo } from '../node/chain-io.service';
import { ReceiptTracker } from './receipt-tracker.service';

/** Whether any signed transaction of a row is mined, and if so its settlement (through the tracker, like every receipt). */
@Injectable()
export class MinedCheck {
  constructor(
    private readonly chain: ChainIo,
    private readonly tracker: ReceiptTracker,
  ) {}

  /**
   * True when one of the transaction's hashes is mined (and it has been settled). Throws when no
   * provider at the head can say: false is evidence a verdict may rest on.
   */
  async settleIfMined(tx: RelayTransactionEntity, broadcasts: RelayBroadcastEntity[]): Promise<boolean> {
    for (const b of broadcasts) {
      const receipt = await this.chain.fateReceipt(tx.chainId, b.hash);
      if (receipt) {
        // Found here: the tracker forgets the transaction and settles it (tracking it from block 0
        // first, as before, sent a busy tracker back to the chain's first block).
        await this.tracker.found(tx.chainId, receipt, undefined, tx.id);
        return true;
      }
    }
    return false;
  }
}
