/** What other modules may use of liveness: the periodic-job watchdog. */
export { LivenessModule } from './liveness.module';
export { PeriodicJobs } from './periodic-jobs.service';
export type { PeriodicJob, RecoveryHook } from './periodic-jobs.service';
