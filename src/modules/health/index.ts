/** What other modules (and main.ts) may use of health. */
export { HealthModule } from './health.module';
export { OpsListener } from './ops-listener.service';
