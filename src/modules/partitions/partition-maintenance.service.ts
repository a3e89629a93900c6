import { Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { AppConfig } from '../../config/app-config';
import { monthOf, PARTITIONED_TABLES, PartitionStore } from './partition.store';

/**
 * Keeps the monthly partitions ahead of time and, with RETENTION_DAYS set, drops whole months
 * past it whose rows are all final (settled and at finality depth, events dispatched, deliveries
 * done). Runs in workers on an in-process timer (PARTITION_MAINTENANCE_INTERVAL_MS), first at
 * start; every step is idempotent and serialised in PostgreSQL, so any number of workers is safe.
 * A row that finds no month lands in the default partition and is kept, never refused.
 */
@Injectable()
export class PartitionMaintenance implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(PartitionMaintenance.name);
  private timer?: NodeJS.Timeout;
  private running: Promise<void> | null = null;

  constructor(
    private readonly store: PartitionStore,
    private readonly config: AppConfig,
  ) {}

  onApplicationBootstrap(): void {
    void this.run();
    this.timer = setInterval(() => void this.run(), this.config.PARTITION_MAINTENANCE_INTERVAL_MS);
    this.timer.unref();
  }

  onApplicationShutdown(): void {
    clearInterval(this.timer);
  }

  /** One pass (concurrent callers share it); failures are logged and retried next pass. */
  run(now = new Date()): Promise<void> {
    this.running ??= this.pass(now)
      .catch((err: Error) => this.logger.warn(`partition maintenance failed, retrying next pass: ${err.message}`))
      .finally(() => {
        this.running = null;
      });
    return this.running;
  }

  /** Creates this month and PARTITION_MONTHS_AHEAD months after it. */
  async createAhead(now = new Date()): Promise<string[]> {
    const created: string[] = [];
    for (let i = 0; i <= this.config.PARTITION_MONTHS_AHEAD; i++) {
      const result = await this.store.ensureMonth(monthOf(now, i));
      created.push(...result.created);
      for (const name of result.blocked) this.logger.warn(`partition ${name} not created: rows of that month are in the default partition (move them, then it is created next pass)`);
    }
    if (created.length) this.logger.log(`partitions created: ${created.join(', ')}`);
    return created;
  }

  /** Drops the months that ended RETENTION_DAYS or more ago and hold only final rows; 0 days: nothing. */
  async applyRetention(now = new Date()): Promise<string[]> {
    const days = this.config.RETENTION_DAYS;
    if (!days) return [];
    const cutoff = now.getTime() - days * 86_400_000;
    const dropped: string[] = [];
    for (const suffix of await this.store.months(PARTITIONED_TABLES[0])) {
      const month = monthOf(new Date(Date.UTC(Number(suffix.slice(0, 4)), Number(suffix.slice(4)) - 1, 1)));
      if (Date.parse(month.to) > cutoff) break;
      const result = await this.store.dropMonthIfFinal(suffix);
      if ('keptFor' in result) {
        this.logger.warn(`retention keeps month ${suffix}: ${result.keptFor} still has rows that are not final`);
        continue;
      }
      dropped.push(...result.dropped);
    }
    if (dropped.length) this.logger.log(`retention dropped partitions: ${dropped.join(', ')}`);
    return dropped;
  }

  private async pass(now: Date): Promise<void> {
    await this.createAhead(now);
    await this.applyRetention(now);
  }
}
