/** What other modules may use of metrics. */
export { MetricsService } from './metrics.service';
