import { Injectable, Logger } from '@nestjs/common';
import { RelayTransactionStore } from '../../store/relay-transaction.store';
import { SendQueue } from '../send/send-queue';
import { SettlementService } from '../settle/settlement.service';

const BATCH = 500;

/** Each reconciler pass: rows past their validUntil. */
@Injectable()
export class Expiry {
  private readonly logger = new Logger(Expiry.name);

  constructor(
    private readonly txs: RelayTransactionStore,
    private readonly settlement: SettlementService,
    private readonly queue: SendQueue,
  ) {}

  /**
   * validUntil passed: an unsent row fails at once (`expired`, released); a sent one gets a
   * cancellation at its nonce, and whichever of the two is mined decides.
   */
  async expire(): Promise<number> {
    let expired = 0;
    const stamp = Date.now().toString(36);
    for (const tx of await this.txs.expiredInFlight(new Date(), BATCH)) {
      try {
        if (tx.stage === 'accepted' && (await this.settlement.failUnsent(tx.id, 'validUntil passed before it was sent', 'expired', ['accepted']))) {
          expired++;
          continue;
        }
        // Sent (or signed since the read): cancel it at its nonce.
        if ((await this.txs.requestCancel(tx.id, 'expired')) && (await this.queue.enqueue(tx.id, 'replace', `x${stamp}`))) expired++;
      } catch (err) {
        this.logger.warn(`expiring ${tx.id}: ${(err as Error).message.split('\n')[0]}`);
      }
    }
    return expired;
  }
}
