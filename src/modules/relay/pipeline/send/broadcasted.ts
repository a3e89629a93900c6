import { Injectable } from '@nestjs/common';
import { notificationFor, TxStatusPublisher } from '../../../tx-events';
import { RelayBroadcastEntity } from '../../store/relay-broadcast.entity';
import { RelayTransactionEntity } from '../../store/relay-transaction.entity';
import { ChainIo } from '../node/chain-io.service';
import { ReceiptTracker } from '../track/receipt-tracker.service';
import { BroadcastMarks } from './broadcast-marks';

/** What follows a node taking a transaction (the `sent` reaction), per job. */
@Injectable()
export class Broadcasted {
  constructor(
    private readonly tracker: ReceiptTracker,
    private readonly chain: ChainIo,
    private readonly publisher: TxStatusPublisher,
    private readonly marks: BroadcastMarks,
  ) {}

  /**
   * A new signature (first or replacement) was taken. `row`: the row with it, the tracker's copy
   * (inclusion is counted from its `broadcastAt`).
   */
  async signature(row: RelayTransactionEntity, hash: string, fromBlock: number, sentAt: number): Promise<void> {
    // When the tracker is already polling this chain every few ms (other broadcasts in flight),
    // it finds this receipt as soon as a receipt call would: one node call less per transaction.
    const polling = this.tracker.isPollingFast(row.chainId);
    this.tracker.track(row.chainId, row.id, hash, fromBlock + 1, row, sentAt);
    // Side by side: the hash signal (returnOnTxHash waiters) and, on an idle chain, the receipt,
    // which instant-mining chains may already have (settling now saves a poll interval).
    const [receipt] = await Promise.all([polling ? null : this.chain.receipt(row.chainId, hash), this.publisher.publish('hash', notificationFor(row, null))]);
    // Settlement marks the mined broadcast as accepted in its own statement; others are marked in batches.
    if (receipt) await this.tracker.found(row.chainId, receipt, row);
    else this.marks.accepted(hash, row.id);
  }

  /** The stored bytes were sent again: every hash of the row watched (from a few blocks back, one may be mined already). */
  resent(tx: RelayTransactionEntity, previous: RelayBroadcastEntity[], fromBlock: number): void {
    for (const b of previous) this.tracker.track(tx.chainId, tx.id, b.hash, Math.max(fromBlock - 64, 0));
    this.marks.accepted(previous[previous.length - 1].hash);
  }

  /** A cancellation was taken: watched beside the call's hashes; whichever is mined decides. */
  cancellation(tx: RelayTransactionEntity, hash: string, fromBlock: number): void {
    this.tracker.track(tx.chainId, tx.id, hash, fromBlock + 1, tx);
    this.marks.accepted(hash);
  }
}
