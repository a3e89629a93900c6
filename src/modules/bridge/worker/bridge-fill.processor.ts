import { InjectQueue, Processor, WorkerHost } from '@nestjs/bullmq';
import { OnApplicationBootstrap } from '@nestjs/common';
import { Queue } from 'bullmq';
import { runWithTrace } from '../../../common/trace/trace-context';
import { AppConfig } from '../../../config/app-config';
import { QUEUES } from '../../../queue/queue-names';
import { PeriodicJobs } from '../../liveness';
import { BridgeFiller } from '../domain/bridge-filler.service';

const SCHEDULER_ID = 'bridge-fill';

/**
 * One filler pass per BRIDGE_WATCH_INTERVAL_MS across all workers (BullMQ job scheduler, kept
 * registered by PeriodicJobs). A pass keeps nothing outside PostgreSQL and the chains, so a pass
 * run twice (two workers, a re-delivered job) or cut short by a kill sends nothing twice.
 */
@Processor(QUEUES.bridge)
export class BridgeFillProcessor extends WorkerHost implements OnApplicationBootstrap {
  constructor(
    private readonly filler: BridgeFiller,
    private readonly config: AppConfig,
    private readonly periodic: PeriodicJobs,
    @InjectQueue(QUEUES.bridge) private readonly queue: Queue,
  ) {
    super();
  }

  async onApplicationBootstrap(): Promise<void> {
    await this.periodic.schedule({ id: SCHEDULER_ID, queue: this.queue, everyMs: this.config.BRIDGE_WATCH_INTERVAL_MS, name: 'pass' });
  }

  async process(): Promise<void> {
    await runWithTrace(`bridge-fill-${Date.now()}`, () => this.filler.passAll());
  }
}
