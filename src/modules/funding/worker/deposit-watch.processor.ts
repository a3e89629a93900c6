import { InjectQueue, Processor, WorkerHost } from '@nestjs/bullmq';
import { OnApplicationBootstrap } from '@nestjs/common';
import { Queue } from 'bullmq';
import { runWithTrace } from '../../../common/trace/trace-context';
import { AppConfig } from '../../../config/app-config';
import { QUEUES } from '../../../queue/queue-names';
import { PeriodicJobs } from '../../liveness';
import { DepositSweeper } from '../domain/deposit-sweeper.service';
import { DepositWatcher } from '../domain/deposit-watcher.service';

const SCHEDULER_ID = 'deposit-watch';

/**
 * One deposit pass per DEPOSIT_WATCH_INTERVAL_MS across all workers (BullMQ job scheduler, kept
 * registered by PeriodicJobs after a Redis loss): watch every chain, then sweep. The pass keeps
 * no state outside PostgreSQL, so a pass run twice (two workers, a re-delivered job) is harmless.
 */
@Processor(QUEUES.deposits)
export class DepositWatchProcessor extends WorkerHost implements OnApplicationBootstrap {
  constructor(
    private readonly watcher: DepositWatcher,
    private readonly sweeper: DepositSweeper,
    private readonly config: AppConfig,
    private readonly periodic: PeriodicJobs,
    @InjectQueue(QUEUES.deposits) private readonly queue: Queue,
  ) {
    super();
  }

  async onApplicationBootstrap(): Promise<void> {
    await this.periodic.schedule({ id: SCHEDULER_ID, queue: this.queue, everyMs: this.config.DEPOSIT_WATCH_INTERVAL_MS, name: 'watch' });
  }

  async process(): Promise<void> {
    await runWithTrace(`deposit-watch-${Date.now()}`, async () => {
      await this.watcher.passAll();
      await this.sweeper.sweepAll(this.watcher.chains());
    });
  }
}
