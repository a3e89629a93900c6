/** What the app uses of vault: the HTTP module and the worker module (it relays through the relay's SubmissionService). */
export { VaultModule } from './vault.module';
export { VaultWorkerModule } from './vault-worker.module';
