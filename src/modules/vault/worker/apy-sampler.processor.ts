import { InjectQueue, Processor, WorkerHost } from '@nestjs/bullmq';
import { OnApplicationBootstrap } from '@nestjs/common';
import { Queue } from 'bullmq';
import { runWithTrace } from '../../../common/trace/trace-context';
import { AppConfig } from '../../../config/app-config';
import { QUEUES } from '../../../queue/queue-names';
import { PeriodicJobs } from '../../liveness';
import { ApyService } from '../domain/apy.service';

const SCHEDULER_ID = 'vault-share-samples';

/** One share-price sampling pass per VAULT_SAMPLE_INTERVAL_MS across all workers (BullMQ job scheduler, kept registered by PeriodicJobs). */
@Processor(QUEUES.vaultSamples)
export class ApySamplerProcessor extends WorkerHost implements OnApplicationBootstrap {
  constructor(
    private readonly apy: ApyService,
    private readonly config: AppConfig,
    private readonly periodic: PeriodicJobs,
    @InjectQueue(QUEUES.vaultSamples) private readonly queue: Queue,
  ) {
    super();
  }

  async onApplicationBootstrap(): Promise<void> {
    await this.periodic.schedule({ id: SCHEDULER_ID, queue: this.queue, everyMs: this.config.VAULT_SAMPLE_INTERVAL_MS, name: 'sample' });
  }

  async process(): Promise<void> {
    await runWithTrace(`vault-sample-${Date.now()}`, () => this.apy.sampleAll());
  }
}
