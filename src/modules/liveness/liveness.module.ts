import { Module } from '@nestjs/common';
import { PeriodicJobs } from './periodic-jobs.service';

/** The watchdog every periodic job registers with; imported by the worker modules. */
@Module({
  providers: [PeriodicJobs],
  exports: [PeriodicJobs],
})
export class LivenessModule {}
