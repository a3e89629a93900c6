import { Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { RelayOutcome, RelayOutcomes } from '../../relay';
import { GaslessStatusService } from '../domain/gasless-status.service';

/** A gasless swap's row follows its settlement as soon as the relay announces the outcome. */
@Injectable()
export class GaslessOutcomeListener implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger(GaslessOutcomeListener.name);
  private stop?: () => void;

  constructor(
    private readonly outcomes: RelayOutcomes,
    private readonly statuses: GaslessStatusService,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    this.stop = await this.outcomes.on('gasless', (outcome) => void this.onOutcome(outcome));
  }

  onModuleDestroy(): void {
    this.stop?.();
  }

  private async onOutcome({ txId }: RelayOutcome): Promise<void> {
    try {
      await this.statuses.followRelay(txId);
    } catch (err) {
      // GET /gasless/status catches up on read; nothing is lost.
      this.logger.warn(`swap update from the outcome of ${txId} failed: ${(err as Error).message}`);
    }
  }
}
