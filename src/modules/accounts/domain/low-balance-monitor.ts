import { Injectable, Logger } from '@nestjs/common';
import { AccountSignals } from '../../tx-events';
import { AccountStore } from '../store/account.store';

/**
 * The account.low_balance event (extensions.md): called after every committed balance change
 * (submission, settlement, credit, a new threshold). The state lives in the account row, so the
 * event goes out once per crossing whichever instance sees it; the outbox row is the durable
 * copy that reaches webhooks, the signal reaches sockets.
 */
@Injectable()
export class LowBalanceMonitor {
  private readonly logger = new Logger(LowBalanceMonitor.name);

  constructor(
    private readonly accounts: AccountStore,
    private readonly signals: AccountSignals,
  ) {}

  /** Never throws: the balance change it follows is already committed. */
  async check(userId: string): Promise<void> {
    try {
      const event = await this.accounts.lowBalanceTransition(userId);
      if (!event) return;
      this.logger.log(`account ${userId} below its low-balance threshold: ${event.availableBalance} < ${event.threshold} USD`);
      await this.signals.publish(event);
    } catch (err) {
      this.logger.warn(`low-balance check of ${userId} failed: ${(err as Error).message}`);
    }
  }
}
