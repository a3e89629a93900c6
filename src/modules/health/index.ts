/** What other modules (and main.ts) may use of health: its module (GET /health, the admin health report) and the ops listener. */
export { HealthModule } from './health.module';
export { OpsListener } from './ops-listener.service';
