/** What other modules may use of the dashboard: the module, for the application's composition. */
export { DashboardModule } from './dashboard.module';
