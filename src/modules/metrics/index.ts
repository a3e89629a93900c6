/** What other modules may use of metrics. */
export { MetricsService } from './metrics.service';
export { FleetFigures, FLEET_BUCKET_SECONDS, LATENCY_BOUNDS, latencyQuantile } from './fleet-figures.service';
export type { FleetBucket } from './fleet-figures.service';
