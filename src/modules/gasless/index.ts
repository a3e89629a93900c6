/** What the app uses of gasless: the HTTP module and the worker module (it relays through the relay's SubmissionService). */
export { GaslessModule } from './gasless.module';
export { GaslessWorkerModule } from './gasless-worker.module';
