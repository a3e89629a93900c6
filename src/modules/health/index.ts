/** What the app uses of health: its module (GET /health, the admin health report). */
export { HealthModule } from './health.module';
