import { Injectable } from '@nestjs/common';
import { QueueDepthMetrics } from '../../../queue/queue-depth.metrics';
import { FLEET_BUCKET_SECONDS, FleetFigures, latencyQuantile } from '../../metrics';
import { OperatorFiguresDto } from './operator-figures.dto';
import { PendingCountStore } from './pending-count.store';

/**
 * The operator dashboard's throughput, latency, backlog and queues for the whole deployment:
 * from Redis (the fleet's buckets, BullMQ's queues) and PostgreSQL, never one process's own
 * counters, so any API instance behind the load balancer answers the same.
 */
@Injectable()
export class OperatorFigures {
  constructor(
    private readonly fleet: FleetFigures,
    private readonly queues: QueueDepthMetrics,
    private readonly pendingRows: PendingCountStore,
  ) {}

  async read(minutes: number, now = Date.now()): Promise<OperatorFiguresDto> {
    const [buckets, queues, pending] = await Promise.all([this.fleet.series(now - minutes * 60_000, now), this.queues.depths(), this.pendingRows.pending()]);
    const all = buckets.reduce((sum, b) => sum.map((n, i) => n + b.latency[i]), buckets[0]?.latency.map(() => 0) ?? []);
    return {
      bucketSeconds: FLEET_BUCKET_SECONDS,
      series: buckets.map((b) => ({ t: b.t, submitted: b.submitted, executed: b.executed, failed: b.failed, p50: latencyQuantile(b.latency, 0.5), p95: latencyQuantile(b.latency, 0.95) })),
      totals: {
        submitted: buckets.reduce((n, b) => n + b.submitted, 0),
        executed: buckets.reduce((n, b) => n + b.executed, 0),
        failed: buckets.reduce((n, b) => n + b.failed, 0),
        p50: latencyQuantile(all, 0.5),
        p95: latencyQuantile(all, 0.95),
      },
      pending,
      queues,
    };
  }
}
