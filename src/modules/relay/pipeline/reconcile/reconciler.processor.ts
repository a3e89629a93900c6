import { InjectQueue, Processor, WorkerHost } from '@nestjs/bullmq';
import { Logger, OnApplicationBootstrap } from '@nestjs/common';
import { Queue } from 'bullmq';
import { runWithTrace } from '../../../../common/trace/trace-context';
import { AppConfig } from '../../../../config/app-config';
import { QUEUES } from '../../../../queue/queue-names';
import { ChainHealthService } from '../../../chains';
import { PeriodicJobs } from '../../../liveness';
import { ChainRegistry } from '../../../chains';
import { NonceManager } from '../keys/nonce-manager.service';
import { SignerPool } from '../../core/signer-pool.service';
import { ReconcilerService } from './reconciler.service';

const SCHEDULER_ID = 'relay-reconcile';

/**
 * A BullMQ job scheduler runs one reconcile pass per interval across all workers; the
 * PeriodicJobs watchdog registers it again if Redis loses it. At start the worker also resyncs
 * every relayer nonce with its chain.
 */
@Processor(QUEUES.reconciler)
export class ReconcilerProcessor extends WorkerHost implements OnApplicationBootstrap {
  private readonly logger = new Logger(ReconcilerProcessor.name);

  constructor(
    private readonly reconciler: ReconcilerService,
    private readonly nonces: NonceManager,
    private readonly signers: SignerPool,
    private readonly chains: ChainRegistry,
    private readonly health: ChainHealthService,
    private readonly config: AppConfig,
    private readonly periodic: PeriodicJobs,
    @InjectQueue(QUEUES.reconciler) private readonly queue: Queue,
  ) {
    super();
  }

  async onApplicationBootstrap(): Promise<void> {
    await this.periodic.schedule({ id: SCHEDULER_ID, queue: this.queue, everyMs: this.config.RELAY_RECONCILE_INTERVAL_MS, name: 'reconcile' });
    for (const chain of this.chains.all().filter((c) => c.enabled && c.rpcUrl && this.health.isHealthy(c.chainId))) {
      for (const address of this.signers.poolAddresses()) {
        await this.nonces.resync(chain.chainId, address).catch((err: Error) => this.logger.warn(`nonce resync ${address}@${chain.chainId}: ${err.message}`));
      }
    }
  }

  async process(): Promise<void> {
    await runWithTrace(`reconcile-${Date.now()}`, () => this.reconciler.reconcile());
  }
}
